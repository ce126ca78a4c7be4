import type { AgentEvent } from '../events/agent-event.js';
import type { EventChannel } from '../events/event-channel.js';
import type { RunAbort } from '../loop/run-abort.js';
import type { AgentResult } from '../result/agent-result.js';

/**
 * One prompt in progress: an async iterable of its events plus its result.
 *
 * Contract:
 * - The run proceeds whether or not anyone iterates it; events are kept from
 *   the first, so iterating late or slowly loses none. Iterate it once.
 * - Leaving the `for await` early stops the events, not the run; call `abort()` to stop it.
 * - `result()` always resolves, never rejects: failures are in `terminateReason` and `error`.
 */
export class AgentRun implements AsyncIterable<AgentEvent> {
  readonly runId: string;
  readonly #channel: EventChannel;
  readonly #result: Promise<AgentResult>;
  readonly #abort: RunAbort;

  /** @internal Made by `Agent.prompt`. */
  constructor(runId: string, channel: EventChannel, result: Promise<AgentResult>, abort: RunAbort) {
    this.runId = runId;
    this.#channel = channel;
    this.#result = result;
    this.#abort = abort;
  }

  [Symbol.asyncIterator](): AsyncIterator<AgentEvent> {
    return this.#channel[Symbol.asyncIterator]();
  }

  /** The outcome of the run, once it has ended. */
  result(): Promise<AgentResult> {
    return this.#result;
  }

  /** Aborts this run; it ends with `aborted`. */
  abort(reason?: unknown): void {
    this.#abort.abort(reason);
  }
}
