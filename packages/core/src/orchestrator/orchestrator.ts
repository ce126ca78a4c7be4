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
import type { AnyTool, ToolRisk } from '../tool/tool.js';

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
 * left of `limits.maxTokens`, so it was not sent; `max_turns` and
 * `await_user` (and a stop) mean the run had stopped before the call, which
 * was not made: return that reason from `run()`.
 */
export type ModelCallResult =
  | { ok: true; message: AssistantMessage }
  | {
      ok: false;
      reason: 'aborted' | 'timeout' | 'error' | 'max_tokens' | 'max_turns' | 'await_user';
      error: AgentError;
    };

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
 * A tool as an orchestrator sees it (`ctx.tools`): what the model is told
 * about it, without `execute`. Every call runs through the gate
 * (`ctx.executeTool`); at run time its `execute` refuses with a `ContractError`.
 */
export interface OrchestratorTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: AnyTool['parameters'];
  readonly timeoutMs?: number;
  readonly risk?: ToolRisk;
  readonly idempotent?: boolean;
}

/**
 * What core hands an orchestrator for one run. The helpers keep the run's
 * invariants and refuse what would break them, so an orchestrator built from
 * them cannot corrupt the history, run a tool twice or outside the gate, or
 * outlive its run.
 *
 * Contract:
 * - `callModel` streams, retries, falls back and emits the message events. It
 *   rejects with a `ContractError` (`unanswered_tool_calls`) while a tool call
 *   of the history has no result: answer each with `executeTool` or `skipTool` first.
 * - Every model call is a turn and counts toward `maxTurns`: `callModel`
 *   starts one itself when `nextTurn` was not called for it.
 * - `executeTool` is the one place a tool call runs: events, validation,
 *   policies and approvals, the session log, timeouts, abort, error results,
 *   and the result appended. A tool's failure is an error result, never a
 *   rejection; it rejects only for a broken rule (`ContractError`: a call that
 *   is not unanswered, already running or changed) or a stopped run.
 * - Once the run has stopped (aborted, timed out, paused, out of turns or
 *   tokens), a model call is not made: the first ends `ok: false` with the
 *   reason; once the orchestrator was told (`nextTurn` gave a reason, a model
 *   call ended `ok: false` for the stop, `ctx.aborted` read true), a new
 *   `callModel` or `executeTool` rejects with `RunStoppedError`. Both come
 *   after a macrotask, so a loop that ignores them cannot starve timers:
 *   return from `run()`. If `run()` does not return within
 *   `limits.stopGraceMs`, core ends the run without it (`error`,
 *   `orchestrator_unresponsive`) and every helper refuses from then on.
 * - Appending anything but a tool result while tool calls are unanswered
 *   first gives those calls `skipped` results (and `tool_skipped` events).
 * - When the run ends, calls still unanswered get error results and an open
 *   turn gets its `turn_end`, so every tool call in the history has exactly
 *   one result and every `turn_start` its `turn_end`.
 * - `messages` and `modelMessages()` are the run's copy of the history
 *   (kept in step by core; a change to the list never reaches the history,
 *   and the next `callModel`, or the run's end, fails with `history_read_only`),
 *   `tools` cannot be run directly, and the messages of the history are frozen.
 */
export interface OrchestratorContext {
  readonly runId: string;
  /**
   * The agent's history, as the run's copy of it: it grows as the history does
   * and reads as fast as any array. Change the history only through the
   * helpers: a change to this list never reaches it (`history_read_only`).
   */
  readonly messages: readonly AgentMessage[];
  /** The run's tools, to read (names, descriptions, parameters, risk); run them with `executeTool`. */
  readonly tools: readonly OrchestratorTool[];
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
   * True when this run continues a paused one (`agent.resume()`): the calls
   * that waited have been answered and `savedState` holds what the
   * orchestrator saved before the pause. False for a new prompt.
   */
  readonly resuming: boolean;
  /**
   * The plain-JSON state this orchestrator saved with `saveState` in the run
   * that paused, when this run resumes it; undefined otherwise. A multi-phase
   * strategy reads it to go on where it paused instead of starting over.
   */
  readonly savedState: unknown;

  /**
   * Starts the next turn and emits `turn_start` (ending a turn still open
   * with its `turn_end`), or returns the reason the run must stop instead:
   * `aborted`, `timeout`, `max_turns`, `max_tokens`, or a governance halt.
   */
  nextTurn(): TerminateReason | undefined;
  /**
   * The history as the model is sent it: the agent's `convertToLlm` applied,
   * or app-defined messages left out. Cached until the history changes, so
   * calling it every step costs nothing; read-only (without app-defined
   * messages or a conversion, it is `messages`), and it may grow as the
   * history does: copy it to keep a snapshot. To add a message for one call:
   * `ctx.callModel({ messages: [...ctx.modelMessages(), extra] })`.
   */
  modelMessages(): readonly Message[];
  /** The agent's system prompt as it would be sent on the next model call. */
  systemPrompt(): string | undefined;
  /** Emits `turn_end` for the current turn; nothing when no turn is open. */
  endTurn(message?: AssistantMessage): void;
  /**
   * Calls the model with the history, the agent's tools and system prompt.
   * Resolves `{ ok: false }` for a failed or interrupted call; rejects only as
   * the contract above says (unanswered calls, a stopped or ended run).
   */
  callModel(options?: ModelCallOptions): Promise<ModelCallResult>;
  /**
   * Runs one unanswered tool call of the history through the gate and appends
   * its result. A tool that fails, times out or is refused gives an error
   * result, not a rejection. A call that pauses for approval gets no result:
   * the run's signal aborts (stop there) and the returned message is not in the history.
   */
  executeTool(call: ToolCallBlock): Promise<ToolResultMessage>;
  /**
   * Runs calls concurrently (bounded by `maxParallelTools`); appends results
   * in call order. Rejects, running nothing, when an id is given twice
   * (`duplicate_tool_call_in_batch`) or a call is not unanswered.
   */
  executeTools(calls: readonly ToolCallBlock[]): Promise<ToolResultMessage[]>;
  /** Appends a `skipped` result for an unanswered call and emits `tool_skipped`; throws `ContractError` for any other call. */
  skipTool(call: ToolCallBlock, reason: string): ToolResultMessage;
  /** Moves queued steering messages into the history (emitting `steering`) and returns them. */
  pollSteering(): AgentMessage[];
  /** Moves queued follow-up messages into the history (emitting `follow_up`) and returns them. */
  pollFollowUp(): AgentMessage[];
  /** Appends a message to the history. */
  append(message: AgentMessage): void;
  /**
   * Emits an event; core adds `runId`, `turn` and `seq`. Events core emits
   * itself (the run's start and end, turns, messages, tool calls) are refused
   * with a `ContractError` (`core_event`).
   */
  emit(event: AgentEventInput): void;
  /**
   * Keeps a small plain-JSON value with the run (the last one given wins): if
   * the run pauses for approval, it is stored with the pause (and the session)
   * and handed back as `savedState` when the run resumes, in any process.
   * Throws `ContractError` (`orchestrator_state`) for a value that is not
   * plain JSON or is larger than 64 KiB as JSON.
   */
  saveState(state: unknown): void;
}

/**
 * A strategy that drives one prompt.
 *
 * Contract:
 * - `run` uses only the context's helpers to change state and reach the
 *   model and tools, and resolves with how the run ended.
 * - It checks `ctx.nextTurn()` before every model call and returns the reason
 *   it gives; it returns when a helper reports the run stopped (`ctx.aborted`,
 *   a result with `ok: false`, a `RunStoppedError`).
 * - It takes steering messages between tool calls and, before it completes,
 *   follow-up and steering messages that arrived meanwhile (`pollFollowUp`,
 *   `pollSteering`), so a message the user queued during the run is answered in it.
 * - On resume (`ctx.resuming`) it goes on from `ctx.savedState` rather than
 *   repeating the phases it finished before the pause.
 * - If it throws, core ends the run with `error` and still settles the result.
 */
export interface Orchestrator {
  readonly name: string;
  run(ctx: OrchestratorContext): Promise<RunEnd>;
}
