import { AgentError, type AgentErrorOptions } from './agent-error.js';

/** A call a decision named that already had its result: what became of it. */
export interface DecidedCall {
  toolCallId: string;
  toolName: string;
  /** Whether its result is an error result (a denial, a failure, a call not run). */
  isError: boolean;
  /** The start of its result's text. */
  result: string;
}

/**
 * A decision passed to `agent.resume()` that cannot be applied: it names a
 * call the history does not hold (`approval_unknown_call`), its input hash
 * does not match the call's input (`approval_input_mismatch`), it is not a
 * decision at all (`approval_invalid`), or another process decided (or
 * changed, or is running) the stored session since this one loaded it
 * (`approval_claimed`; `cause` is the store's conflict or busy lease when
 * one was found), or every decision names a call already decided
 * (`approval_already_decided`; `decided` says what became of each). Nothing ran.
 */
export class ApprovalError extends AgentError {
  readonly toolCallId: string | undefined;
  /** With `approval_already_decided`: the calls named and their results. */
  readonly decided: readonly DecidedCall[] | undefined;

  constructor(
    code:
      | 'approval_unknown_call'
      | 'approval_input_mismatch'
      | 'approval_invalid'
      | 'approval_claimed'
      | 'approval_already_decided',
    message: string,
    toolCallId?: string,
    options: AgentErrorOptions & { decided?: readonly DecidedCall[] } = {},
  ) {
    super(code, message, options);
    this.name = 'ApprovalError';
    this.toolCallId = toolCallId;
    this.decided = options.decided;
  }
}
