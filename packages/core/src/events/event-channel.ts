import type { AgentEvent } from './agent-event.js';

const compactAfter = 1024;

/**
 * The event queue of one run: events are buffered from the first one, so a
 * consumer that starts late or reads slowly loses nothing, and each event is
 * released as soon as it has been read. One reader; the run never waits for it.
 */
export class EventChannel implements AsyncIterable<AgentEvent> {
  #buffer: AgentEvent[] = [];
  #head = 0;
  #closed = false;
  #detached = false;
  #reading = false;
  #waiter: ((result: IteratorResult<AgentEvent>) => void) | undefined;

  push(event: AgentEvent): void {
    if (this.#detached) return;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter({ value: event, done: false });
    } else {
      this.#buffer.push(event);
    }
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
    if (this.#head < this.#buffer.length) {
      const value = this.#buffer[this.#head] as AgentEvent;
      this.#buffer[this.#head++] = undefined as unknown as AgentEvent;
      if (this.#head >= compactAfter && this.#head * 2 >= this.#buffer.length) {
        this.#buffer = this.#buffer.slice(this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.#closed || this.#detached) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  #detach(): void {
    this.#detached = true;
    this.#buffer = [];
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
