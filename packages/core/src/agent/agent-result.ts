import type { AgentError } from '../errors/agent-error.js';
import type { PendingApproval } from '../governance/pending-approval.js';
import type { AgentMessage, ToolResultMessage, Usage } from '../messages/messages.js';

/**
 * Why a run ended. `max_tokens` is the run's token budget (`limits.maxTokens`)
 * running out; `output_limit` is the model's last answer cut off by its output
 * token limit (`maxOutputTokens` or the model's own), with the partial text kept.
 */
export type TerminateReason =
  | 'completed'
  | 'max_turns'
  | 'timeout'
  | 'aborted'
  | 'max_tokens'
  | 'output_limit'
  | 'await_user'
  | 'error';

/** One tool call of a run, with its outcome. */
export interface ToolCallRecord {
  id: string;
  name: string;
  input: Record<string, unknown>;
  result: ToolResultMessage['content'];
  isError: boolean;
  durationMs: number;
}

/** What a run produced. Everything in it is plain JSON except `error`, which has `toJSON`. */
export interface AgentResult {
  /** The final answer: the last model text of the run, or the limit message when `max_turns` or `max_tokens` ended it. */
  text: string;
  /** The agent's whole history after the run. */
  messages: readonly AgentMessage[];
  toolCalls: ToolCallRecord[];
  /** Model calls made. */
  turns: number;
  usage: Usage;
  terminateReason: TerminateReason;
  error?: AgentError;
  /** Structured output, when the run asked for it. */
  output?: unknown;
  outputValid?: boolean;
  /** With `await_user`: the calls waiting for a decision; pass decisions to `agent.resume()`. */
  pendingApprovals?: PendingApproval[];
  durationMs: number;
  runId: string;
  traceId: string;
}
