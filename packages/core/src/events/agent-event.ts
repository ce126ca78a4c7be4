import type { AgentResult } from '../agent/agent-result.js';
import type { AgentError } from '../errors/agent-error.js';
import type {
  AgentMessage,
  AssistantMessage,
  ToolCallBlock,
  ToolResultMessage,
  Usage,
} from '../messages/messages.js';
import type { ProviderError } from '../provider/provider-error.js';
import type { CompactionMessage } from '../context/compaction-message.js';

/** Fields every event carries: the run, the turn (0 before the first model call) and a sequence number. */
export interface EventBase {
  runId: string;
  turn: number;
  /** Strictly increasing within a run, from 0. */
  seq: number;
}

/** The body of each event, by type, without the base fields. */
export interface AgentEventBodies {
  agent_start: { messages: number };
  turn_start: Record<never, never>;
  message_start: { provider: string; model: string };
  text_delta: { delta: string };
  thinking_delta: { delta: string };
  message_end: { message: AssistantMessage };
  tool_call_start: { toolCall: ToolCallBlock };
  tool_call_end: {
    toolCall: ToolCallBlock;
    result: ToolResultMessage['content'];
    isError: boolean;
    durationMs: number;
  };
  tool_skipped: { toolCall: ToolCallBlock; reason: string };
  steering: { message: AgentMessage };
  follow_up: { message: AgentMessage };
  turn_end: { message: AssistantMessage | undefined };
  usage: { usage: Usage; total: Usage };
  /** A model call failed and will be tried again; a partial message shown before it was discarded. */
  retry: {
    attempt: number;
    delayMs: number;
    error: ProviderError;
    provider: string;
    discardedPartial: boolean;
  };
  /**
   * The context window compacted what is sent, before a model call: over its
   * budget, or after the provider reported an overflow. `message` is the
   * record appended to the history.
   */
  compaction: {
    reason: 'budget' | 'overflow';
    droppedMessages: number;
    tokensBefore: number;
    tokensAfter: number;
    summarized: boolean;
    message: CompactionMessage;
  };
  error: { error: AgentError };
  agent_end: { result: AgentResult };
  /** An orchestrator's own progress (a plan, a step); `name` says which. */
  custom: { name: string; data: unknown };
}

/** The type names of agent events. */
export type AgentEventType = keyof AgentEventBodies;

/** One event of a run, discriminated on `type`. */
export type AgentEvent = {
  [Type in AgentEventType]: EventBase & { type: Type } & AgentEventBodies[Type];
}[AgentEventType];

/** The event of one type. */
export type AgentEventOf<Type extends AgentEventType> = Extract<AgentEvent, { type: Type }>;

/** What an orchestrator passes to `ctx.emit`: an event without the base fields. */
export type AgentEventInput = {
  [Type in AgentEventType]: { type: Type } & AgentEventBodies[Type];
}[AgentEventType];
