import { AgentError, type AgentErrorOptions } from './agent-error.js';

/**
 * A decision passed to `agent.resume()` that cannot be applied: it names a
 * call the history does not hold (`approval_unknown_call`), its input hash
 * does not match the call's input (`approval_input_mismatch`), it is not a
 * decision at all (`approval_invalid`), or another process decided (or
 * changed, or is running) the stored session since this one loaded it
 * (`approval_claimed`; `cause` is the store's conflict or busy lease when
 * one was found). Nothing ran.
 */
export class ApprovalError extends AgentError {
  readonly toolCallId: string | undefined;

  constructor(
    code: 'approval_unknown_call' | 'approval_input_mismatch' | 'approval_invalid' | 'approval_claimed',
    message: string,
    toolCallId?: string,
    options: AgentErrorOptions = {},
  ) {
    super(code, message, options);
    this.name = 'ApprovalError';
    this.toolCallId = toolCallId;
  }
}
