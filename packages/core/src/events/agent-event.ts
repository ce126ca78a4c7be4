import type { AgentResult } from '../result/agent-result.js';
import type { AgentError } from '../errors/agent-error.js';
import type {
  AgentMessage,
  AssistantMessage,
  ToolCallBlock,
  ToolResultMessage,
  Usage,
} from '../messages/messages.js';
import type { ProviderError } from '../provider/provider-error.js';
import type { ApprovalChoice } from '../governance/approval.js';
import type { GuardAction } from '../governance/guard.js';
import type { PendingApproval } from '../governance/pending-approval.js';
import type { PolicyDecision } from '../governance/policy.js';
import type { ToolRisk } from '../tool/tool.js';
import type { CompactionMessage } from '../messages/compaction-message.js';
import type { TraceContext } from '../trace/trace-context.js';

/** Fields every event carries: the run, the turn (0 before the first model call) and a sequence number. */
export interface EventBase {
  runId: string;
  turn: number;
  /** Strictly increasing within a run, from 0. */
  seq: number;
}

/**
 * The span of a turn, model call attempt or tool call: 16-hex W3C span ids in
 * the run's trace. A model call's or tool call's parent is its turn; a turn's is the run.
 */
export interface SpanFields {
  spanId: string;
  parentSpanId: string;
}

/** The body of each event, by type, without the base fields. */
export interface AgentEventBodies {
  agent_start: {
    messages: number;
    /** The run's 32-hex W3C trace id: the caller's when the prompt joined a trace, else random. */
    traceId: string;
    /** The run's root span id. */
    spanId: string;
    /** The caller's span, when the prompt passed a parent trace context. */
    parentSpanId?: string;
    /** Trace contexts the prompt asked to link to (a resumed session's first run, say). */
    links?: readonly TraceContext[];
  };
  turn_start: SpanFields;
  /** A model call attempt begins (the first, a retry, or the fallback); each is its own span. */
  message_start: SpanFields & { provider: string; model: string; attempt: number };
  text_delta: { delta: string };
  thinking_delta: { delta: string };
  /** The attempt ended: done, failed (`stopReason: 'error'`, with `error`) or aborted. */
  message_end: SpanFields & { message: AssistantMessage; error?: ProviderError };
  tool_call_start: SpanFields & { toolCall: ToolCallBlock };
  tool_call_end: SpanFields & {
    toolCall: ToolCallBlock;
    result: ToolResultMessage['content'];
    isError: boolean;
    durationMs: number;
  };
  tool_skipped: SpanFields & { toolCall: ToolCallBlock; reason: string };
  steering: { message: AgentMessage };
  follow_up: { message: AgentMessage };
  turn_end: SpanFields & { message: AssistantMessage | undefined };
  usage: { usage: Usage; total: Usage };
  /**
   * A model call failed and will be tried again; a partial message shown before it was discarded.
   * `spanId` is the failed attempt's (its `message_end` came just before).
   */
  retry: SpanFields & {
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
  /** The policy decided a tool call. */
  policy: {
    toolCall: ToolCallBlock;
    risk: ToolRisk;
    decision: PolicyDecision;
    reason: string;
    policy: string;
  };
  /** A call needs a person's decision: the approver is asked, or the run will pause for it. */
  approval_request: { approval: PendingApproval };
  /** A call was decided: by the approver, a resume's decision, a remembered "allow always", or an abort (deny). */
  approval: {
    toolCall: ToolCallBlock;
    decision: ApprovalChoice;
    reason?: string | undefined;
    source: 'approver' | 'decision' | 'remembered' | 'abort';
  };
  /** The guard answered something other than `ok`, before a tool call (with `toolCall`) or a model call. */
  guard: { action: Exclude<GuardAction, 'ok'>; reason: string; toolCall?: ToolCallBlock };
  /** An orchestrator's own progress (a plan, a step); `name` says which. */
  custom: { name: string; data: unknown };
  /**
   * An event of a subagent's run, wrapped: `agent` is its name, `childRunId` its
   * run, `depth` its nesting (1 for a direct subagent), `toolCallId` the call of
   * this run that started it. Events of one child arrive in their own order.
   */
  subagent: { agent: string; childRunId: string; depth: number; toolCallId: string; event: AgentEvent };
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
