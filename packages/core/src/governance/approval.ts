import type { ToolCallBlock } from '../messages/messages.js';
import type { PendingApproval } from './pending-approval.js';

/** What the `approve` callback is asked: the pending approval, the call itself and the run's signal. */
export interface ApprovalRequest extends PendingApproval {
  toolCall: ToolCallBlock;
  /** Aborted when the run is; stop asking then (the call is recorded as denied). */
  signal: AbortSignal;
}

/** A person's choice: run once, run this tool from now on in this agent's session, refuse, or decide later. */
export type ApprovalChoice = 'allow' | 'allow_always' | 'deny' | 'later';

/** What `approve` answers: a choice, or a choice with a reason (shown to the model for `deny`). */
export type ApprovalAnswer = ApprovalChoice | { decision: ApprovalChoice; reason?: string };

/**
 * Asks a person about a tool call that a policy or the guard wants approved.
 * `later` (or no approver) stops the run with `await_user` and the call in
 * `result.pendingApprovals`; decide it with `agent.resume({ decisions })`.
 * A throw or rejection denies the call (fail closed).
 */
export type Approver = (request: ApprovalRequest) => Promise<ApprovalAnswer> | ApprovalAnswer;
