import type { RunOptions, SystemPromptSource } from './run-options.js';
import type { ToolAgent } from '../tool/tool.js';
import type { TerminateReason } from '../result/agent-result.js';
import type { AgentError } from '../errors/agent-error.js';
import type { EventSink, ToolCallEnd } from '../events/run-events.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { SpanIds } from '../trace/span-ids.js';
import type { Logger } from '../logger/logger.js';
import type { AgentMessage, AssistantMessage, Message, Usage } from '../messages/messages.js';
import type { OrchestratorTool, RunSettings } from '../orchestrator/orchestrator.js';
import type { ToolSpec } from '../provider/provider.js';
import type { PreparedTool } from '../tool/prepare-tool.js';
import type { AnyTool } from '../tool/tool.js';
import type { SharedModelWatch } from './model-call-watch.js';
import type { PendingCalls } from './pending-calls.js';
import type { RunAbort } from './run-abort.js';
import type { PendingApproval } from '../governance/pending-approval.js';
import type { ApprovalMemory, RunGovernance } from './run-governance.js';

/** How governance ended a run: paused for a person, or stopped by the guard. Core reports it instead of the orchestrator's end. */
export interface RunHalt {
  reason: Extract<TerminateReason, 'await_user' | 'error'>;
  error?: AgentError;
  pendingApprovals?: PendingApproval[];
}
import type { RunAccess } from './tool-run-access.js';
import type { RunJournal } from './run-journal.js';
import type { ContextWindow } from '../context/context-window.js';

/** What the Agent shares with a run: its history and queues, owned by the Agent. */
export interface AgentShared {
  /** The agent, as a tool sees it (`ToolContext.agent`). */
  agent: ToolAgent;
  /** The agent's options; the loop reads only the `RunOptions` part. */
  options: RunOptions;
  messages: AgentMessage[];
  steeringQueue: AgentMessage[];
  followUpQueue: AgentMessage[];
  /** Count of app-defined messages in the history, so model calls skip filtering when there are none. */
  customMessages: number;
  /** How the running prompt is stopped; undefined between runs, so the agent takes a new prompt. */
  runAbort: RunAbort | undefined;
  /** The agent's listeners (`Agent.subscribe`); undefined until the first, so an agent nobody listens to keeps no set. */
  listeners: Set<(event: AgentEvent) => void> | undefined;
  /** Where the running prompt's events go; `noEvents` between runs. */
  events: EventSink;
  logger: Logger;
  /** Pending approvals and tools allowed always: plain JSON, kept between runs. */
  approvals: ApprovalMemory;
  /**
   * The plain-JSON state the orchestrator saved (`ctx.saveState`) in the run
   * that paused, handed back on resume; undefined when the last run did not pause.
   */
  orchestratorState: unknown;
  /** Set from `options.contextWindow`; undefined costs model calls one check. */
  contextWindow?: ContextWindow | undefined;
  /**
   * The ids of every tool call in the history, so a reply reusing one is refused;
   * made from the history at the first reply with a tool call, then kept
   * current by `RunContext.append`; `reset()` drops it.
   */
  toolCallIds?: Set<string> | undefined;
}

/** The mutable state of one run, shared by the context and its helpers. */
export interface RunState {
  readonly shared: AgentShared;
  readonly runId: string;
  readonly settings: RunSettings;
  readonly tools: readonly AnyTool[];
  /** The tools as the orchestrator gets them: without a way to run them outside the gate. */
  readonly toolViews: readonly OrchestratorTool[];
  readonly toolsByName: ReadonlyMap<string, PreparedTool>;
  readonly toolSpecs: readonly ToolSpec[];
  /** How the run is stopped; its signal is made only when something reads it. */
  readonly abort: RunAbort;
  /**
   * Set when the run aborts (by its first callback, so at once): `timeout`
   * when the run's time ran out. The hot path reads it instead of `signal.aborted`.
   */
  stopCause: 'aborted' | 'timeout' | undefined;
  turn: number;
  /** True from a turn's `turn_start` to its `turn_end`. */
  turnOpen: boolean;
  /** True once the open turn made its model call: the next call starts a turn of its own. */
  turnCalled: boolean;
  /** The reply of the open turn's model call, for the `turn_end` core emits when the orchestrator does not. */
  turnMessage: AssistantMessage | undefined;
  /** A limit or halt the run was told of (by `nextTurn` or a refused model call): no model call or tool runs after it. */
  stopped: TerminateReason | undefined;
  /**
   * True once the orchestrator was told the run stopped (`nextTurn` gave a
   * reason, a model call ended `ok: false` for the stop, `ctx.aborted` read
   * true): a model call or tool call it asks for after that is refused.
   */
  stopTold: boolean;
  /** True once the run's result is made: every helper refuses from then on. */
  ended: boolean;
  /** Called once when the run stops, to give the orchestrator `stopGraceMs` to return. */
  onStop: (() => void) | undefined;
  /** True for `agent.resume()`; `savedState` is what the paused run's orchestrator saved. */
  readonly resuming: boolean;
  readonly savedState: unknown;
  /** What the orchestrator saved this run (`ctx.saveState`), stored with a pause. */
  orchestratorState: unknown;
  /** Where the run's events go: this run's own sink, and `noEvents` once the run has ended. */
  events: EventSink;
  /** The run's copy of the history handed out (see `historyView`), made on first use and kept in step by `append`. */
  view: AgentMessage[] | undefined;
  seq: number;
  usage: Usage;
  /** The run's tool calls as they ended: the result's `ToolCallRecord`s are made from them when it ends. */
  toolCalls: ToolCallEnd[];
  /** Tool calls in the history without a result yet, in call order. */
  pending: PendingCalls;
  /**
   * Results of finished calls that wait for an earlier call of their batch,
   * paused inside, to get its result first (see `held-results.ts`); undefined
   * until a pause holds one.
   */
  held: Map<string, ToolCallEnd> | undefined;
  /**
   * Calls the loop refuses before any check, by id, with the message their
   * error result gives: cut off by the output limit, or input that is not a
   * JSON object, too deep or too large. Never run. Made at the first.
   */
  refused: Map<string, string> | undefined;
  lastAssistant: AssistantMessage | undefined;
  /** The history as the model sees it, when that differs from the history, and the history length it was made at. */
  modelView: Message[] | undefined;
  modelViewLength: number;
  /** The abort controller and idle timer that the run's model calls share. */
  readonly modelWatch: SharedModelWatch;
  idCounter: number;
  /** The system prompt of this run (a `beforeRun` hook may have changed it). */
  readonly systemPrompt: SystemPromptSource | undefined;
  /** Policy, guard, intents and decisions of this run; `undefined` when it has none, so the gate skips them. */
  readonly governance: RunGovernance | undefined;
  /** Set when governance ends the run (a pause or the guard). */
  halt: RunHalt | undefined;
  /** The handle tools get as `ToolContext.run`; made on the first tool call. */
  runAccess?: RunAccess;
  /** Usage that other agents (subagents) spent for this run, by agent name; set on the first such report. */
  usageByAgent?: Record<string, Usage>;
  /** Where the run is written as it happens; undefined without a store, so the loop skips it with one check. */
  readonly journal: RunJournal | undefined;
  /** The run's W3C trace id and root span id. */
  readonly traceId: string;
  readonly spanId: string;
  /** The run's spans by number, and their W3C ids when an event needs them. */
  readonly spans: SpanIds;
  /** The span of the current turn: the parent of its model calls and tool calls (0, the run's, before the first turn). */
  turnSpan: number;
  /** Counters for `result.metrics`: model call attempts, retries, fallback attempts. */
  modelCalls: number;
  retries: number;
  fallbacks: number;
  /** Milliseconds from the run's first model request to the first event it streamed back. */
  timeToFirstTokenMs: number | undefined;
}
