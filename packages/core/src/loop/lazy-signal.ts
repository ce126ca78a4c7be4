import type { StreamOptions } from '../provider/provider.js';

/** Something whose abort signal is made when first read: the model calls' shared watch. */
export interface SignalSource {
  readonly signal: AbortSignal;
}

/**
 * The `StreamOptions` the run's model calls share: `signal` is an own,
 * enumerable accessor, so reading it and spreading the options (`{ ...options }`
 * copies the signal) behave as for a plain property, while a provider that
 * never reads it costs no `AbortSignal`. On Node 20 making a signal takes a
 * few microseconds (its `EventTarget` gets its prototype after creation), about
 * as much as a step's own work. Once read, the signal is kept as a plain value.
 * Defining an accessor costs a few hundred nanoseconds, so one object serves
 * every call of a run (see `SharedModelWatch.options`), never one per call.
 */
export class LazyStreamOptions implements StreamOptions {
  declare signal: AbortSignal;
  readonly #source: SignalSource;

  static readonly #signal: PropertyDescriptor = {
    get(this: LazyStreamOptions): AbortSignal {
      const signal = this.#source.signal;
      Object.defineProperty(this, 'signal', {
        value: signal,
        enumerable: true,
        configurable: true,
        writable: true,
      });
      return signal;
    },
    enumerable: true,
    configurable: true,
  };

  constructor(source: SignalSource) {
    Object.defineProperty(this, 'signal', LazyStreamOptions.#signal);
    this.#source = source;
  }
}
