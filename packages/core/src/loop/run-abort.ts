/**
 * How a run is stopped: `abort(reason)` from `agent.abort()`, the caller's
 * signal, the run's timeout or governance. Its `AbortSignal` is made when
 * first read (a tool call, a custom orchestrator), and core's own waits
 * subscribe with `onAbort` instead of adding listeners to it: on Node 20 an
 * `AbortSignal` outlives young-generation collections, and with it everything
 * its listeners reach, so a listener holding the run's state kept every
 * finished run in memory until a full collection.
 */
export class RunAbort {
  #aborted = false;
  #reason: unknown;
  #controller: AbortController | undefined;
  #callbacks: ((reason: unknown) => void)[] | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  /** The abort reason; undefined until aborted. */
  get reason(): unknown {
    return this.#reason;
  }

  /** The run's signal, made on first use (already aborted if the run has stopped). */
  get signal(): AbortSignal {
    let controller = this.#controller;
    if (controller === undefined) {
      controller = new AbortController();
      this.#controller = controller;
      if (this.#aborted) controller.abort(this.#reason);
    }
    return controller.signal;
  }

  /** Stops the run once; later calls do nothing. Without a reason it is an `AbortError`, as `AbortController` gives. */
  abort(reason?: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason =
      reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const callbacks = this.#callbacks;
    this.#callbacks = undefined;
    if (callbacks !== undefined) for (const callback of callbacks.slice()) callback(this.#reason);
    this.#controller?.abort(this.#reason);
  }

  /**
   * Calls `callback` once when the run aborts (at once if it has), in the
   * order they were added and before the signal's listeners; returns the
   * function that removes it, which must be called when the wait ends.
   */
  onAbort(callback: (reason: unknown) => void): () => void {
    if (!this.subscribe(callback)) return noop;
    return () => this.off(callback);
  }

  /**
   * `onAbort` without the function that removes the callback (one closure
   * less for a wait that lasts the whole run): remove it with `off`. Returns
   * false when the run had already aborted and the callback was called at once.
   */
  subscribe(callback: (reason: unknown) => void): boolean {
    if (this.#aborted) {
      callback(this.#reason);
      return false;
    }
    const callbacks = this.#callbacks;
    // Made at its size: a run usually has one callback (its own) while it waits for its model.
    if (callbacks === undefined) this.#callbacks = [callback];
    else callbacks.push(callback);
    return true;
  }

  /** Removes a callback added with `subscribe` or `onAbort`; nothing if it is not there. */
  off(callback: (reason: unknown) => void): void {
    const callbacks = this.#callbacks;
    if (callbacks === undefined) return;
    const index = callbacks.indexOf(callback);
    if (index >= 0) callbacks.splice(index, 1);
  }
}

function noop(): void {}
