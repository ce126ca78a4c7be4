import type { AgentOptions } from '../agent/agent-options.js';
import type { ToolCallRecord } from '../agent/agent-result.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { Logger } from '../logger/logger.js';
import type { AgentMessage, AssistantMessage, ToolCallBlock, Usage } from '../messages/messages.js';
import type { RunSettings } from '../orchestrator/orchestrator.js';
import type { ToolSpec } from '../provider/provider.js';
import type { PreparedTool } from '../tool/prepare-tool.js';
import type { AnyTool } from '../tool/tool.js';
import type { SharedModelWatch } from './model-call-watch.js';

/** What the Agent shares with a run: its history and queues, owned by the Agent. */
export interface AgentShared {
  agent: unknown;
  options: AgentOptions;
  messages: AgentMessage[];
  steeringQueue: AgentMessage[];
  followUpQueue: AgentMessage[];
  /** Count of app-defined messages in the history, so model calls skip filtering when there are none. */
  customMessages: number;
  deliver(event: AgentEvent): void;
  logger: Logger;
}

/** The mutable state of one run, shared by the context and its helpers. */
export interface RunState {
  readonly shared: AgentShared;
  readonly runId: string;
  readonly settings: RunSettings;
  readonly tools: readonly AnyTool[];
  readonly toolsByName: ReadonlyMap<string, PreparedTool>;
  readonly toolSpecs: readonly ToolSpec[];
  readonly controller: AbortController;
  /**
   * Set when the run's signal aborts (by its first listener, so at once): `timeout`
   * when the run's time ran out. The hot path reads it instead of `signal.aborted`.
   */
  stopCause: 'aborted' | 'timeout' | undefined;
  turn: number;
  seq: number;
  usage: Usage;
  toolCalls: ToolCallRecord[];
  /** Tool calls in the history without a result yet, in call order. */
  pending: Map<string, ToolCallBlock>;
  /** Calls cut off by the output limit; they are answered with an error, never run. */
  truncated: Set<string>;
  lastAssistant: AssistantMessage | undefined;
  /** The abort controller and idle timer that the run's model calls share. */
  readonly modelWatch: SharedModelWatch;
  idCounter: number;
  /** The run's W3C trace id and root span id. */
  readonly traceId: string;
  readonly spanId: string;
  /** The span of the current turn: the parent of its model calls and tool calls (the run's before the first turn). */
  turnSpanId: string;
  /** Counters for `result.metrics`: model call attempts, retries, fallback attempts. */
  modelCalls: number;
  retries: number;
  fallbacks: number;
  /** Milliseconds from the run's first model request to the first event it streamed back. */
  timeToFirstTokenMs: number | undefined;
}
