import type { AgentError } from '../errors/agent-error.js';
import type { AgentMessage, ToolResultMessage, Usage } from '../messages/messages.js';
import type { RunMetrics } from '../observability/run-metrics.js';

/** Why a run ended. */
export type TerminateReason =
  | 'completed'
  | 'max_turns'
  | 'timeout'
  | 'aborted'
  | 'max_tokens'
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
  /** The final answer: the last model text of the run, or the limit message when a limit ended it. */
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
  durationMs: number;
  runId: string;
  /** The run's 32-hex W3C trace id: the caller's when the prompt joined a trace, else random. */
  traceId: string;
  /** The run's root span id (16 hex); its turns are its children. */
  spanId: string;
  /** The caller's span the run joined, if the prompt passed one. */
  parentSpanId?: string;
  /** Counts, tokens, cost and timings of the run. */
  metrics: RunMetrics;
}
