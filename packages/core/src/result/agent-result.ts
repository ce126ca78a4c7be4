import type { AgentError } from '../errors/agent-error.js';
import type { PendingApproval } from '../governance/pending-approval.js';
import type { AgentMessage, ToolResultMessage, Usage } from '../messages/messages.js';
import type { RunMetrics } from './run-metrics.js';

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

/**
 * What a run produced. Everything in it is plain JSON except `error`, which has `toJSON`.
 * `TOutput` types `output`: an `AgentExecutor` run of a definition with an output schema sets it.
 */
export interface AgentResult<TOutput = unknown> {
  /** The final answer: the last model text of the run, or the limit message when `max_turns` or `max_tokens` ended it. */
  text: string;
  /** The agent's whole history after the run. */
  messages: readonly AgentMessage[];
  toolCalls: ToolCallRecord[];
  /** Turns the run made: each model call is one (`maxTurns` counts them). */
  turns: number;
  usage: Usage;
  terminateReason: TerminateReason;
  error?: AgentError;
  /** Structured output, when the run asked for it and it passed the schema. */
  output?: TOutput;
  /** Whether structured output was delivered and passed the schema; set only when the run asked for it. */
  outputValid?: boolean;
  /** With `await_user`: the calls waiting for a decision; pass decisions to `agent.resume()`. */
  pendingApprovals?: PendingApproval[];
  /**
   * With `await_user`: the plain-JSON state the orchestrator saved
   * (`ctx.saveState`), stored with the pause and handed back on resume.
   */
  orchestratorState?: unknown;
  /**
   * Usage per agent, when other agents (subagents) spent tokens for this run:
   * this agent's own under its `name`, each subagent's under its name. `usage` is their sum.
   */
  usageByAgent?: Record<string, Usage>;
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
