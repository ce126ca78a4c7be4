import type { ApprovalDecision } from '@agent-core/core';

/**
 * What the app did with decisions the studio handed it: it enqueued the run's
 * resume (for a worker pool, say), so the run goes on in another process and
 * the studio resumes nothing itself.
 */
export interface DecisionHandOff {
  outcome: 'enqueued';
  /** The id of the work that resumes the run (a run queue's operation id): the page shows it. */
  operationId: string;
  /** Where that work stands now in the queue's words (`queued`, `running`...), shown beside it. */
  state?: string;
  /** True when the same decisions had been enqueued before: this is the work the first ones started, and nothing more was enqueued. */
  alreadyEnqueued?: boolean;
}

/**
 * Takes decisions over from the studio: resolve a `DecisionHandOff` once the
 * resume is enqueued elsewhere, or `undefined` to let the studio resume the
 * run in its own process. `decisions` are bound to the calls' input hashes
 * and name only calls the session still waits for. A throw is reported to
 * the page: core's `ApprovalError` as what it means (`approval_claimed`:
 * another decider won; `approval_already_decided`: nothing waits), another
 * `AgentError` as a refusal with its message, anything else as a failure.
 */
export type HandOffDecisions = (
  sessionId: string,
  decisions: readonly ApprovalDecision[],
) => Promise<DecisionHandOff | undefined>;
