import type { RunState } from './run-state.js';

/** What a call's wait for its next event is woken with when the call's signal aborts. */
export const callCutOff: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * The abort signal and idle watch of one model call. A run's calls usually
 * come one at a time: they share one controller (linked to the run's signal)
 * and one idle timer per run, so a call costs no `AbortController`, listener or
 * timer of its own. A call made while another is in flight gets its own.
 */
export interface ModelCallWatch {
  readonly signal: AbortSignal;
  /** Counts an event of the stream: activity that keeps the idle timer from firing. */
  touch(): void;
  /** Ends the watch; returns true when the call was cut off for going silent (not by the run's abort). */
  end(): boolean;
  /**
   * Set by the call while it waits for its next event; the watch calls it with
   * `callCutOff` right after aborting the call's signal. The watch aborts the
   * signal itself (run abort, idle), so a call needs no abort listener of its own.
   */
  wake: ((cutOff: IteratorReturnResult<undefined>) => void) | undefined;
}

/**
 * The run's shared watch, in `RunState.modelWatch`. While it watches the one
 * call in flight it is also that call's `ModelCallWatch`: nothing is allocated per call.
 */
export class SharedModelWatch implements ModelCallWatch {
  controller: AbortController | undefined;
  /** The run's signal, which the controller follows. */
  runSignal: AbortSignal | undefined;
  unlink: () => void = noop;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Stream events plus call starts so far: the idle check compares it between two firings. */
  activity = 0;
  inFlight = 0;
  wake: ((cutOff: IteratorReturnResult<undefined>) => void) | undefined = undefined;

  get signal(): AbortSignal {
    return (this.controller as AbortController).signal;
  }

  touch(): void {
    this.activity++;
  }

  end(): boolean {
    this.inFlight--;
    return (this.controller as AbortController).signal.aborted && !(this.runSignal?.aborted ?? false);
  }

  /** Stops watching: clears the timer and unlinks the controller. Called when the run ends. */
  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.unlink();
    this.unlink = noop;
    this.controller = undefined;
  }
}

/**
 * Starts watching one model call. Its stream is aborted once it has sent
 * nothing for `idleMs`, give or take a quarter of it: the timer wakes four
 * times per period and compares a counter, so an event costs no timer work.
 */
export function watchModelCall(state: RunState, idleMs: number): ModelCallWatch {
  const shared = state.modelWatch;
  const runSignal = state.controller.signal;
  if (shared.inFlight > 0) return ownWatch(runSignal, idleMs);
  shared.inFlight++;
  shared.activity++;
  const controller = shared.controller;
  if (controller === undefined || controller.signal.aborted) {
    shared.unlink();
    const fresh = new AbortController();
    shared.controller = fresh;
    shared.runSignal = runSignal;
    shared.unlink = linkAndWake(runSignal, fresh, shared);
  }
  if (shared.timer === undefined) armSharedTimer(shared, idleMs);
  return shared;
}

/** Quiet checks in a row that make a stream idle: one check every quarter of the idle time. */
const checksPerPeriod = 4;

function armSharedTimer(shared: SharedModelWatch, idleMs: number): void {
  const interval = Math.max(1, idleMs / checksPerPeriod);
  let seen = shared.activity;
  let quiet = 0;
  const check = () => {
    // No call in flight: nothing to watch until the next call arms the timer again.
    if (shared.inFlight === 0) {
      shared.timer = undefined;
      return;
    }
    if (shared.activity === seen) {
      if (++quiet >= checksPerPeriod) {
        shared.timer = undefined;
        shared.controller?.abort();
        shared.wake?.(callCutOff);
        return;
      }
    } else {
      seen = shared.activity;
      quiet = 0;
    }
    shared.timer = setTimeout(check, interval);
  };
  shared.timer = setTimeout(check, interval);
}

/** A call overlapping another one: its own controller and timer, as every call once had. */
function ownWatch(runSignal: AbortSignal, idleMs: number): ModelCallWatch {
  const controller = new AbortController();
  const interval = Math.max(1, idleMs / checksPerPeriod);
  let activity = 0;
  let seen = 0;
  let quiet = 0;
  const check = () => {
    if (activity === seen) {
      if (++quiet >= checksPerPeriod) {
        controller.abort();
        watch.wake?.(callCutOff);
        return;
      }
    } else {
      seen = activity;
      quiet = 0;
    }
    timer = setTimeout(check, interval);
  };
  let timer = setTimeout(check, interval);
  const watch: ModelCallWatch = {
    signal: controller.signal,
    touch: () => {
      activity++;
    },
    end: () => {
      clearTimeout(timer);
      unlink();
      return controller.signal.aborted && !runSignal.aborted;
    },
    wake: undefined,
  };
  const unlink = linkAndWake(runSignal, controller, watch);
  return watch;
}

/**
 * Makes the call's controller abort when the run's signal does, then wakes the
 * call's wait. Returns the function that unlinks them.
 */
function linkAndWake(
  runSignal: AbortSignal,
  controller: AbortController,
  watch: Pick<ModelCallWatch, 'wake'>,
): () => void {
  if (runSignal.aborted) {
    controller.abort(runSignal.reason);
    return noop;
  }
  const onAbort = () => {
    controller.abort(runSignal.reason);
    watch.wake?.(callCutOff);
  };
  runSignal.addEventListener('abort', onAbort, { once: true });
  return () => runSignal.removeEventListener('abort', onAbort);
}

function noop(): void {}
