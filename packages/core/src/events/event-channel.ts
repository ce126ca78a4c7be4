import type { AgentEvent } from './agent-event.js';

const compactAfter = 1024;
/** Integers of the channel's records kept in a plain array before moving to an `Int32Array`: about 1,000 steps. */
const smallInts = 6144;

/*
 * A record is one integer when it follows the record before it with the next
 * seq, in the same turn or the next, as a step's events do, and six
 * otherwise. Its first integer, the head, holds the kind in its low four bits
 * (0: an event object, nothing follows) and a flag saying which form it is:
 * - short: the extra (0 to 3), whether the turn moved on by one, how far the
 *   highest span so far moved up (0 to 31), how far below that highest span
 *   the event's span is (0 to 63), and its parent the same way plus one (0 for
 *   no parent, up to 126 below).
 * - full: turn, seq, span, parent and extra follow as they are.
 * The reader keeps the same turn, seq and highest span as the writer, so it
 * rebuilds every field exactly; anything out of a short field's range is
 * written in full. 26 bits at most: a small integer on every runtime.
 */
const kindBits = 0b1111;
const shortForm = 1 << 4;
const extraShift = 5;
const extraMask = 0b11;
const nextTurn = 1 << 7;
const upShift = 8;
const upMask = 0b1_1111;
const spanShift = upShift + 5;
const spanMask = 0b11_1111;
const parentShift = spanShift + 6;
const parentMask = 0b111_1111;

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
 * A step's events may be kept as records instead of objects (`record`): an
 * integer or a few and one reference each, to what the history holds anyway.
 * A run nobody reads then keeps none of its step events as objects, and the
 * reader gets the same events, made as it reads.
 */
export class EventChannel implements AsyncIterable<AgentEvent> {
  /** Per entry: the event object, or the record's reference. */
  #items: unknown[] = [];
  /**
   * Per entry, its head and, for a record in full, five more integers (see
   * `shortForm`). A plain array of small integers for a short run; past
   * `smallInts` an `Int32Array`, outside the heap, so the collector neither
   * scans nor copies a long run's records (a typed array costs a few
   * microseconds to make: more than a short run's records).
   */
  #ints: number[] | Int32Array = [];
  /** How many of `#ints` are in use, once it is an `Int32Array`. */
  #used = 0;
  /** The next entry to read, in `#items` and in `#ints`. */
  #head = 0;
  #intHead = 0;
  /** The writer's turn, seq and highest span, after its last record; a short record follows from them. */
  #turn = 0;
  #seq = 0;
  #maxSpan = 0;
  /** False at the start and after an event object: the next record is written in full. */
  #follows = false;
  /** The reader's copy of the same, after the last record it read. */
  #readTurn = 0;
  #readSeq = 0;
  #readMaxSpan = 0;
  #closed = false;
  #detached = false;
  #reading = false;
  #waiter: ((result: IteratorResult<AgentEvent>) => void) | undefined;
  /** The executor of the reader's wait, made at the first wait and kept: a wait costs its promise only. */
  #wait: ((resolve: (result: IteratorResult<AgentEvent>) => void) => void) | undefined;
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
    this.#items.push(event);
    this.#write(0);
    this.#follows = false;
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
    this.#items.push(ref);
    const last = this.#maxSpan;
    const max = Math.max(span, last);
    const up = max - last;
    const below = max - span;
    const parentCode = parent === 0 ? 0 : max - parent + 1;
    const turnStep = turn - this.#turn;
    const follows = this.#follows && (turnStep === 0 || turnStep === 1) && seq === this.#seq + 1;
    this.#turn = turn;
    this.#seq = seq;
    this.#maxSpan = max;
    if (
      follows &&
      extra >= 0 &&
      extra <= extraMask &&
      span >= 0 &&
      up <= upMask &&
      below <= spanMask &&
      parentCode >= 0 &&
      parentCode <= parentMask
    ) {
      this.#write(
        kind |
          shortForm |
          (extra << extraShift) |
          (turnStep === 0 ? 0 : nextTurn) |
          (up << upShift) |
          (below << spanShift) |
          (parentCode << parentShift),
      );
      return;
    }
    this.#follows = true;
    this.#write(kind);
    this.#write(turn);
    this.#write(seq);
    this.#write(span);
    this.#write(parent);
    this.#write(extra);
  }

  #write(value: number): void {
    const ints = this.#ints;
    if (Array.isArray(ints) && ints.length < smallInts) {
      ints.push(value);
      return;
    }
    const typed = Array.isArray(ints) || this.#used === ints.length ? this.#grow() : ints;
    typed[this.#used++] = value;
  }

  /** Moves the records into a larger `Int32Array` (from the plain array, the first time). */
  #grow(): Int32Array {
    const old = this.#ints;
    const used = Array.isArray(old) ? old.length : this.#used;
    const ints = new Int32Array(Math.max(smallInts, used * 2));
    ints.set(Array.isArray(old) ? old : old.subarray(0, used));
    this.#ints = ints;
    this.#used = used;
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
      const value = this.#read(item);
      if (this.#head >= compactAfter && this.#head * 2 >= items.length) this.#compact();
      return Promise.resolve({ value, done: false });
    }
    if (this.#closed || this.#detached) return Promise.resolve({ value: undefined, done: true });
    this.#wait ??= (resolve) => {
      this.#waiter = resolve;
    };
    return new Promise(this.#wait);
  }

  /** The event of the entry at the read position, whose item is `item`. */
  #read(item: unknown): AgentEvent {
    const ints = this.#ints;
    const at = this.#intHead;
    const head = ints[at] as number;
    const kind = head & kindBits;
    if (kind === 0) {
      this.#intHead = at + 1;
      return item as AgentEvent;
    }
    let turn: number;
    let seq: number;
    let span: number;
    let parent: number;
    let extra: number;
    if ((head & shortForm) !== 0) {
      this.#intHead = at + 1;
      const max = this.#readMaxSpan + ((head >> upShift) & upMask);
      const parentCode = (head >> parentShift) & parentMask;
      turn = (head & nextTurn) === 0 ? this.#readTurn : this.#readTurn + 1;
      seq = this.#readSeq + 1;
      span = max - ((head >> spanShift) & spanMask);
      parent = parentCode === 0 ? 0 : max - parentCode + 1;
      extra = (head >> extraShift) & extraMask;
      this.#readMaxSpan = max;
    } else {
      this.#intHead = at + 6;
      turn = ints[at + 1] as number;
      seq = ints[at + 2] as number;
      span = ints[at + 3] as number;
      parent = ints[at + 4] as number;
      extra = ints[at + 5] as number;
      if (span > this.#readMaxSpan) this.#readMaxSpan = span;
    }
    this.#readTurn = turn;
    this.#readSeq = seq;
    return (this.#decoder as EventDecoder).build(kind, turn, seq, span, parent, extra, item);
  }

  /** Drops the entries already read. */
  #compact(): void {
    this.#items = this.#items.slice(this.#head);
    this.#head = 0;
    const from = this.#intHead;
    const ints = this.#ints;
    if (Array.isArray(ints)) this.#ints = ints.slice(from);
    else {
      ints.copyWithin(0, from, this.#used);
      this.#used -= from;
    }
    this.#intHead = 0;
  }

  #detach(): void {
    this.#detached = true;
    this.#items = [];
    this.#ints = [];
    this.#used = 0;
    this.#head = 0;
    this.#intHead = 0;
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
