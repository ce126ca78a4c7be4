import type { AgentEvent } from './agent-event.js';

const compactAfter = 1024;
/** Integers per entry in a channel's records: kind (0 for an event object), turn, seq, span, parent, extra. */
const stride = 6;
/** Records kept in a plain array before moving to an `Int32Array`: 1,024 events, a run of about 170 steps. */
const smallInts = 1024 * stride;

/** Makes the event object of a record (see `RunEvents.build`). */
export interface EventDecoder {
  build(
    kind: number,
    turn: number,
    seq: number,
    span: number,
    parent: number,
    extra: number,
    ref: unknown,
  ): AgentEvent;
}

/**
 * The event queue of one run: events are buffered from the first one, so a
 * consumer that starts late or reads slowly loses nothing, and each event is
 * released as soon as it has been read. One reader; the run never waits for it.
 *
 * A step's events may be kept as records instead of objects (`record`): six
 * integers and one reference each, to what the history holds anyway. A run
 * nobody reads then keeps none of its step events as objects, and the reader
 * gets the same events, made as it reads.
 */
export class EventChannel implements AsyncIterable<AgentEvent> {
  /** Per entry: the event object, or the record's reference. */
  #items: unknown[] = [];
  /**
   * Per entry, `stride` integers: kind (0 for an event object), turn, seq,
   * span, parent, extra. A plain array of small integers for a short run; past
   * `smallInts` an `Int32Array`, outside the heap, so the collector neither
   * scans nor copies a long run's records (a typed array costs a few
   * microseconds to make: more than a short run's records).
   */
  #ints: number[] | Int32Array = [];
  #head = 0;
  #closed = false;
  #detached = false;
  #reading = false;
  #waiter: ((result: IteratorResult<AgentEvent>) => void) | undefined;
  /** The executor of the reader's wait, made once: a wait costs its promise only. */
  readonly #wait = (resolve: (result: IteratorResult<AgentEvent>) => void): void => {
    this.#waiter = resolve;
  };
  /** Makes records into events; a channel without one takes event objects only. */
  readonly #decoder: EventDecoder | undefined;

  constructor(decoder?: EventDecoder) {
    this.#decoder = decoder;
  }

  /** True while the reader waits for the next event: a new one goes to it at once, as an object. */
  get waiting(): boolean {
    return this.#waiter !== undefined;
  }

  push(event: AgentEvent): void {
    if (this.#detached) return;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter({ value: event, done: false });
      return;
    }
    this.#write(this.#items.length, 0, 0, 0, 0, 0, 0);
    this.#items.push(event);
  }

  /** Keeps an event as a record; needs a decoder, and is only called while no reader waits. */
  record(
    kind: number,
    turn: number,
    seq: number,
    span: number,
    parent: number,
    extra: number,
    ref: unknown,
  ): void {
    if (this.#detached) return;
    this.#write(this.#items.length, kind, turn, seq, span, parent, extra);
    this.#items.push(ref);
  }

  #write(
    index: number,
    kind: number,
    turn: number,
    seq: number,
    span: number,
    parent: number,
    extra: number,
  ): void {
    const at = index * stride;
    let ints = this.#ints;
    if (Array.isArray(ints)) {
      if (at < smallInts) {
        ints.push(kind, turn, seq, span, parent, extra);
        return;
      }
      ints = this.#grow(ints, at + stride);
    } else if (at + stride > ints.length) {
      ints = this.#grow(ints, at + stride);
    }
    ints[at] = kind;
    ints[at + 1] = turn;
    ints[at + 2] = seq;
    ints[at + 3] = span;
    ints[at + 4] = parent;
    ints[at + 5] = extra;
  }

  #grow(old: number[] | Int32Array, needed: number): Int32Array {
    const ints = new Int32Array(Math.max(needed, old.length * 2));
    ints.set(old);
    this.#ints = ints;
    return ints;
  }

  close(): void {
    this.#closed = true;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter({ value: undefined, done: true });
    }
  }

  #next(): Promise<IteratorResult<AgentEvent>> {
    const items = this.#items;
    if (this.#head < items.length) {
      const index = this.#head++;
      const item = items[index];
      items[index] = undefined;
      const ints = this.#ints;
      const at = index * stride;
      const kind = ints[at] as number;
      const value =
        kind === 0
          ? (item as AgentEvent)
          : (this.#decoder as EventDecoder).build(
              kind,
              ints[at + 1] as number,
              ints[at + 2] as number,
              ints[at + 3] as number,
              ints[at + 4] as number,
              ints[at + 5] as number,
              item,
            );
      if (this.#head >= compactAfter && this.#head * 2 >= items.length) this.#compact();
      return Promise.resolve({ value, done: false });
    }
    if (this.#closed || this.#detached) return Promise.resolve({ value: undefined, done: true });
    return new Promise(this.#wait);
  }

  /** Drops the entries already read. */
  #compact(): void {
    const head = this.#head;
    const length = this.#items.length;
    this.#items = this.#items.slice(head);
    const ints = this.#ints;
    if (Array.isArray(ints)) this.#ints = ints.slice(head * stride);
    else {
      ints.copyWithin(0, head * stride, length * stride);
      ints.fill(0, (length - head) * stride);
    }
    this.#head = 0;
  }

  #detach(): void {
    this.#detached = true;
    this.#items = [];
    this.#ints = [];
    this.#head = 0;
    this.close();
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    if (this.#reading) {
      throw new TypeError(
        'A run can be iterated once. Use agent.subscribe(listener) for more listeners, or run.result() for the outcome.',
      );
    }
    this.#reading = true;
    return {
      next: () => this.#next(),
      // Leaving the loop early stops delivery only; the run goes on to its end.
      return: () => {
        this.#detach();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
