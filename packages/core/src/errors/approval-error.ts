import { AgentError } from './agent-error.js';

/**
 * A decision passed to `agent.resume()` that cannot be applied: it names a
 * call the history does not hold (`approval_unknown_call`), its input hash
 * does not match the call's input (`approval_input_mismatch`), or it is not
 * a decision at all (`approval_invalid`). Nothing ran.
 */
export class ApprovalError extends AgentError {
  readonly toolCallId: string | undefined;

  constructor(
    code: 'approval_unknown_call' | 'approval_input_mismatch' | 'approval_invalid',
    message: string,
    toolCallId?: string,
  ) {
    super(code, message);
    this.name = 'ApprovalError';
    this.toolCallId = toolCallId;
  }
}
