import type { StreamOptions } from '../provider/provider.js';
import { LazyStreamOptions } from './lazy-signal.js';
import type { RunAbort } from './run-abort.js';
import type { RunState } from './run-state.js';

/** What a cut-off wakes: the attempt reading the call's stream (see `ModelAttempt.cutOff`). */
export interface CutOffListener {
  cutOff(): void;
}

/**
 * The abort signal and idle watch of one model call. A run's calls usually
 * come one at a time: they share one controller (aborted with the run) and
 * one idle timer per run, so a call costs no `AbortController`, listener or
 * timer of its own. A call made while another is in flight gets its own.
 */
export interface ModelCallWatch {
  /** The call's signal, made when first read: a provider that never reads it costs none. */
  readonly signal: AbortSignal;
  /** The options the provider gets: `{ signal }`, the signal made when the provider reads it. */
  readonly options: StreamOptions;
  /** True once the call was aborted (the run stopped, or the call went idle); reads no signal. */
  readonly cutOff: boolean;
  /** Counts an event of the stream: activity that keeps the idle timer from firing. */
  touch(): void;
  /** Ends the watch; returns true when the call was cut off for going silent (not by the run's abort). */
  end(): boolean;
  /**
   * Set by the call while it reads the stream; the watch calls it right after
   * aborting the call (run abort, idle), so a call needs no abort listener of its own.
   */
  wake: CutOffListener | undefined;
}

/**
 * The run's shared watch, in `RunState.modelWatch`. While it watches the one
 * call in flight it is also that call's `ModelCallWatch`: nothing is allocated per call.
 */
export class SharedModelWatch implements ModelCallWatch {
  /** The controller of the call in flight, made when a provider reads `signal`. */
  controller: AbortController | undefined;
  /** The run's abort, which every call follows; set by the first call. */
  run: RunAbort | undefined;
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Stream events plus call starts so far: the idle check compares it between two firings. */
  activity = 0;
  inFlight = 0;
  /** Set when the idle check cut the call in flight off. */
  idle = false;
  wake: CutOffListener | undefined = undefined;
  #options: StreamOptions | undefined;

  /** Lets go of an idle (aborted) call's controller: the next call makes a fresh one, with fresh options. */
  resetController(): void {
    this.controller = undefined;
    this.#options = undefined;
  }

  get signal(): AbortSignal {
    let controller = this.controller;
    if (controller === undefined) {
      controller = new AbortController();
      this.controller = controller;
      const run = this.run;
      if (run?.aborted === true) controller.abort(run.reason);
      else if (this.idle) controller.abort();
    } else if (this.run?.aborted === true && !controller.signal.aborted) {
      controller.abort(this.run.reason);
    }
    return controller.signal;
  }

  /** The calls' options, while they share a controller; a fresh controller gets fresh options. */
  get options(): StreamOptions {
    this.#options ??= new LazyStreamOptions(this);
    return this.#options;
  }

  get cutOff(): boolean {
    return this.idle || this.run?.aborted === true;
  }

  touch(): void {
    this.activity++;
  }

  end(): boolean {
    this.inFlight--;
    return this.idle && this.run?.aborted !== true;
  }

  /**
   * Aborts the call in flight, if any, and wakes its wait. The run calls it
   * when it aborts, so the call's controller needs no listener on the run.
   */
  runAborted(reason: unknown): void {
    const controller = this.controller;
    if (controller !== undefined && !controller.signal.aborted) controller.abort(reason);
    this.wake?.cutOff();
  }

  /** Stops watching: clears the timer and lets the controller go. Called when the run ends. */
  close(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.resetController();
  }
}

/**
 * Starts watching one model call. Its stream is aborted once it has sent
 * nothing for `idleMs`, give or take a quarter of it: the timer wakes four
 * times per period and compares a counter, so an event costs no timer work.
 */
export function watchModelCall(state: RunState, idleMs: number): ModelCallWatch {
  const shared = state.modelWatch;
  const run = state.abort;
  if (shared.inFlight > 0) return ownWatch(run, idleMs);
  shared.inFlight++;
  shared.activity++;
  shared.run = run;
  // A controller that an idle cut-off aborted is not reused; a fresh one is made when read.
  if (shared.idle || shared.controller?.signal.aborted === true) shared.resetController();
  shared.idle = false;
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
        shared.idle = true;
        shared.controller?.abort();
        shared.wake?.cutOff();
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
function ownWatch(run: RunAbort, idleMs: number): ModelCallWatch {
  const controller = new AbortController();
  const interval = Math.max(1, idleMs / checksPerPeriod);
  let activity = 0;
  let seen = 0;
  let quiet = 0;
  let idle = false;
  const check = () => {
    if (activity === seen) {
      if (++quiet >= checksPerPeriod) {
        idle = true;
        controller.abort();
        watch.wake?.cutOff();
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
    options: { signal: controller.signal },
    get cutOff() {
      return controller.signal.aborted;
    },
    touch: () => {
      activity++;
    },
    end: () => {
      clearTimeout(timer);
      unlink();
      return idle && !run.aborted;
    },
    wake: undefined,
  };
  const unlink = run.onAbort((reason) => {
    controller.abort(reason);
    watch.wake?.cutOff();
  });
  return watch;
}
