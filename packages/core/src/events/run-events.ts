import type { Logger } from '../logger/logger.js';
import type { AssistantMessage, ToolCallBlock, ToolResultMessage } from '../messages/messages.js';
import type { SpanIds } from '../trace/span-ids.js';
import type { AgentEvent } from './agent-event.js';
import { EventChannel } from './event-channel.js';

/**
 * The kinds of the events a step makes, which a run keeps as records (a few
 * integers and one reference) while nothing reads them, and makes into
 * event objects only when read. Every other event is kept as its object.
 */
export const EventKind = {
  turnStart: 1,
  turnEnd: 2,
  messageStart: 3,
  messageEnd: 4,
  toolCallStart: 5,
  toolCallEnd: 6,
  textDelta: 7,
  thinkingDelta: 8,
} as const;
export type EventKind = (typeof EventKind)[keyof typeof EventKind];

/** How a tool call ended, as its `tool_call_end` reports it. */
export interface ToolCallEnd {
  call: ToolCallBlock;
  content: ToolResultMessage['content'];
  isError: boolean;
  durationMs: number;
}

/** Where a run's events go; the agent swaps in `noEvents` once the run has ended. */
export interface EventSink {
  /** Hands an event object to the run's channel, its logger and the agent's listeners. */
  deliver(event: AgentEvent): void;
  /**
   * One of a step's events, by kind: an object made now if anything wants it
   * now (a listener, a logger, a reader waiting), else a record in the channel.
   * `ref` is the event's one reference (see `build`), `extra` its one number.
   */
  emit(
    kind: EventKind,
    turn: number,
    seq: number,
    span: number,
    parent: number,
    extra: number,
    ref: unknown,
  ): void;
}

/** An agent's listener (`Agent.subscribe`). */
type Listener = (event: AgentEvent) => void;

/** Where a run finds its agent's listeners: read at each event, so one added mid-run hears the rest. */
export interface ListenerSource {
  /** Undefined until the first `subscribe`: an agent nobody listens to keeps no set. */
  readonly listeners: ReadonlySet<Listener> | undefined;
}

/** The event sink of one run. */
export class RunEvents implements EventSink {
  readonly runId: string;
  readonly spans: SpanIds;
  /** The run's model: a `message_start` for another model (a fallback's) is kept as its object. */
  model = '';
  /** The run's event queue, which makes its records into events with `build`. */
  readonly channel: EventChannel;
  readonly #listeners: ListenerSource;
  readonly #log: ((event: AgentEvent) => void) | undefined;
  readonly #logger: Logger;

  constructor(
    runId: string,
    spans: SpanIds,
    listeners: ListenerSource,
    log: ((event: AgentEvent) => void) | undefined,
    logger: Logger,
  ) {
    this.runId = runId;
    this.spans = spans;
    this.channel = new EventChannel(this);
    this.#listeners = listeners;
    this.#log = log;
    this.#logger = logger;
  }

  deliver(event: AgentEvent): void {
    this.channel.push(event);
    const log = this.#log;
    if (log !== undefined) log(event);
    const listeners = this.#listeners.listeners;
    if (listeners === undefined || listeners.size === 0) return;
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        this.#logger.warn('an agent listener threw; the run goes on', {
          event: event.type,
          error: String(error),
        });
      }
    }
  }

  emit(
    kind: EventKind,
    turn: number,
    seq: number,
    span: number,
    parent: number,
    extra: number,
    ref: unknown,
  ): void {
    const listeners = this.#listeners.listeners;
    if (
      this.#log === undefined &&
      (listeners === undefined || listeners.size === 0) &&
      !this.channel.waiting
    ) {
      this.channel.record(kind, turn, seq, span, parent, extra, ref);
      return;
    }
    this.deliver(this.build(kind, turn, seq, span, parent, extra, ref));
  }

  /** The event object of a record: the same fields, in the same order, as if made at once. */
  build(
    kind: number,
    turn: number,
    seq: number,
    span: number,
    parent: number,
    extra: number,
    ref: unknown,
  ): AgentEvent {
    const runId = this.runId;
    const spans = this.spans;
    switch (kind) {
      case EventKind.turnStart:
        return {
          type: 'turn_start',
          runId,
          turn,
          seq,
          spanId: spans.text(span),
          parentSpanId: spans.text(parent),
        };
      case EventKind.turnEnd:
        return {
          type: 'turn_end',
          runId,
          turn,
          seq,
          spanId: spans.text(span),
          parentSpanId: spans.text(parent),
          message: ref as AssistantMessage | undefined,
        };
      case EventKind.messageStart:
        return {
          type: 'message_start',
          runId,
          turn,
          seq,
          spanId: spans.text(span),
          parentSpanId: spans.text(parent),
          provider: ref as string,
          model: this.model,
          attempt: extra,
        };
      case EventKind.messageEnd:
        return {
          type: 'message_end',
          runId,
          turn,
          seq,
          spanId: spans.text(span),
          parentSpanId: spans.text(parent),
          message: ref as AssistantMessage,
        };
      case EventKind.toolCallStart:
        return {
          type: 'tool_call_start',
          runId,
          turn,
          seq,
          spanId: spans.text(span),
          parentSpanId: spans.text(parent),
          toolCall: ref as ToolCallBlock,
        };
      case EventKind.toolCallEnd: {
        const end = ref as ToolCallEnd;
        return {
          type: 'tool_call_end',
          runId,
          turn,
          seq,
          spanId: spans.text(span),
          parentSpanId: spans.text(parent),
          toolCall: end.call,
          result: end.content,
          isError: end.isError,
          durationMs: end.durationMs,
        };
      }
      case EventKind.textDelta:
        return { type: 'text_delta', runId, turn, seq, delta: ref as string };
      default:
        return { type: 'thinking_delta', runId, turn, seq, delta: ref as string };
    }
  }
}

/** The sink of an agent with no run in progress: events are dropped. */
export const noEvents: EventSink = {
  deliver() {},
  emit() {},
};
