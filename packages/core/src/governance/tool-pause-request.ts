import type { PendingApproval } from './pending-approval.js';
import { AgentError } from '../errors/agent-error.js';

/**
 * Thrown by a tool to pause the run that called it until a person decides
 * approvals asked inside the tool (as a subagent tool does when its agent
 * waits for approval). The gate leaves the call unanswered, ends the run with
 * `await_user` and lists `pendingApprovals` with the call and `state`; on
 * `resume()` the tool runs again with `context.resume` holding `state` and the
 * decisions. Thrown outside a run, it is an ordinary error (`tool_paused`).
 */
export class ToolPauseRequest extends AgentError {
  /** The approvals to ask for, as seen from the tool (`agentPath` starting below the calling agent). */
  readonly pendingApprovals: readonly PendingApproval[];
  /** Plain JSON the tool continues from; stored with the pause. */
  readonly state: unknown;

  constructor(pendingApprovals: readonly PendingApproval[], state: unknown) {
    super(
      'tool_paused',
      `The tool waits for ${pendingApprovals.length} approval(s); run it inside an Agent run, which pauses with await_user until they are decided.`,
    );
    this.name = 'ToolPauseRequest';
    this.pendingApprovals = pendingApprovals;
    this.state = state;
  }
}
