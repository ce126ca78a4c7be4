import type { TerminateReason } from '../result/agent-result.js';
import type { AgentError } from '../errors/agent-error.js';
import type { AgentEventInput } from '../events/agent-event.js';
import type {
  AgentMessage,
  AssistantMessage,
  Message,
  ToolCallBlock,
  ToolResultMessage,
  Usage,
} from '../messages/messages.js';
import type { ResponseFormat, ToolChoice, ToolSpec } from '../provider/provider.js';
import type { AnyTool } from '../tool/tool.js';

/** How an orchestrator runs the tool calls of one model response. */
export type ToolExecution = 'sequential' | 'parallel';

/** Per-call changes to the request core builds from the agent's state. */
export interface ModelCallOptions {
  /** Replaces the system prompt for this call. */
  system?: string;
  /** Replaces the messages sent (the history is not changed). */
  messages?: readonly Message[];
  /** Replaces the tools offered; `[]` offers none. */
  tools?: readonly ToolSpec[];
  stopSequences?: readonly string[];
  toolChoice?: ToolChoice;
  /** Asks for a JSON answer in this format (structured output in `native` mode). */
  responseFormat?: ResponseFormat;
  /** Append the final message to the history (default true). */
  append?: boolean;
  /** Receives text deltas instead of them being emitted as `text_delta` events. */
  onTextDelta?: (delta: string) => void;
  /**
   * Called before each streaming attempt (0 first, then each retry and the
   * fallback), so a parser of `onTextDelta` can start over when a partial attempt is discarded.
   */
  onAttemptStart?: (attempt: number) => void;
}

/**
 * The outcome of `ctx.callModel`. On failure nothing was appended to the
 * history; `max_tokens` means the request alone would have exceeded what is
 * left of `limits.maxTokens`, so it was not sent.
 */
export type ModelCallResult =
  | { ok: true; message: AssistantMessage }
  | { ok: false; reason: 'aborted' | 'timeout' | 'error' | 'max_tokens'; error: AgentError };

/** How a run ends, as an orchestrator reports it. Core builds the `AgentResult` from it. */
export interface RunEnd {
  reason: TerminateReason;
  /** The final answer; defaults to the text of the last assistant message of the run. */
  text?: string;
  error?: AgentError;
  output?: unknown;
  outputValid?: boolean;
}

/** Settings of the run that orchestrators read. */
export interface RunSettings {
  model: string;
  toolExecution: ToolExecution;
  /** Upper bound on tool calls in flight in parallel mode. */
  maxParallelTools: number;
  maxTurns: number;
}

/**
 * What core hands an orchestrator for one run. Every helper keeps the run's
 * invariants, so an orchestrator built only from them cannot break them:
 * - `callModel` streams, retries, falls back and emits the message events;
 * - `executeTool` is the one place every tool call passes: events, input
 *   validation, timeouts, abort, error results, and the result appended;
 * - appending anything but a tool result while tool calls are unanswered
 *   first gives those calls `skipped` results (and `tool_skipped` events);
 * - when the run ends, calls still unanswered get error results, so every
 *   tool call in the history has exactly one result.
 */
export interface OrchestratorContext {
  readonly runId: string;
  /** The agent's live history. Read it; change it only through the helpers. */
  readonly messages: readonly AgentMessage[];
  readonly tools: readonly AnyTool[];
  /** The tools as the model sees them (JSON Schema), converted once per tool. */
  readonly toolSpecs: readonly ToolSpec[];
  readonly settings: RunSettings;
  /** Aborted on `agent.abort()`, the caller's signal, or the run's timeout. */
  readonly signal: AbortSignal;
  /**
   * Whether the run has stopped (aborted, timed out, or halted by governance):
   * `signal.aborted` without making the signal, the cheap check after every step.
   */
  readonly aborted: boolean;
  /** The current turn; 0 before the first. */
  readonly turn: number;
  /** Usage of the run so far. */
  readonly usage: Usage;

  /**
   * Starts the next turn and emits `turn_start`, or returns the reason the run
   * must stop instead: `aborted`, `timeout`, `max_turns` or `max_tokens`.
   */
  nextTurn(): TerminateReason | undefined;
  /**
   * The history as the model is sent it: the agent's `convertToLlm` applied,
   * or app-defined messages left out. Cached until the history changes, so
   * calling it every step costs nothing; the live history itself when there is
   * nothing to convert. The array may grow as the history does: copy it to
   * keep a snapshot. To add a message for one call:
   * `ctx.callModel({ messages: [...ctx.modelMessages(), extra] })`.
   */
  modelMessages(): readonly Message[];
  /** The agent's system prompt as it would be sent on the next model call. */
  systemPrompt(): string | undefined;
  /** Emits `turn_end` for the current turn. */
  endTurn(message?: AssistantMessage): void;
  /** Calls the model with the history, the agent's tools and system prompt. */
  callModel(options?: ModelCallOptions): Promise<ModelCallResult>;
  /**
   * Runs one tool call and appends its result. Never throws. A call that
   * pauses for approval gets no result: the run's signal aborts (stop there)
   * and the returned message is not in the history.
   */
  executeTool(call: ToolCallBlock): Promise<ToolResultMessage>;
  /** Runs calls concurrently (bounded by `maxParallelTools`); appends results in call order. Never throws. */
  executeTools(calls: readonly ToolCallBlock[]): Promise<ToolResultMessage[]>;
  /** Appends a `skipped` result for a call and emits `tool_skipped`. */
  skipTool(call: ToolCallBlock, reason: string): ToolResultMessage;
  /** Moves queued steering messages into the history (emitting `steering`) and returns them. */
  pollSteering(): AgentMessage[];
  /** Moves queued follow-up messages into the history (emitting `follow_up`) and returns them. */
  pollFollowUp(): AgentMessage[];
  /** Appends a message to the history. */
  append(message: AgentMessage): void;
  /** Emits an event; core adds `runId`, `turn` and `seq`. */
  emit(event: AgentEventInput): void;
}

/**
 * A strategy that drives one prompt.
 *
 * Contract:
 * - `run` uses only the context's helpers to change state and reach the
 *   model and tools, and resolves with how the run ended.
 * - It checks `ctx.nextTurn()` before every model call and stops when it
 *   returns a reason; it stops when a helper reports the run aborted.
 * - If it throws, core ends the run with `error` and still settles the result.
 */
export interface Orchestrator {
  readonly name: string;
  run(ctx: OrchestratorContext): Promise<RunEnd>;
}
