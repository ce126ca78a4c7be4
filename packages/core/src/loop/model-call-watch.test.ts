import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SharedModelWatch, watchModelCall } from './model-call-watch.js';
import { RunAbort } from './run-abort.js';
import type { RunState } from './run-state.js';

function runState(): RunState {
  return { abort: new RunAbort(), modelWatch: new SharedModelWatch() } as unknown as RunState;
}

describe('the idle watch of a model call', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each([200, 500, 1_500])('fires within a quarter of %i ms after the last event', (idleMs) => {
    const state = runState();
    const watch = watchModelCall(state, idleMs);
    // The worst moment for an event: just after the timer looked.
    vi.advanceTimersByTime(idleMs / 4 + 1);
    watch.touch();
    vi.advanceTimersByTime(idleMs - 1);
    expect(watch.signal.aborted).toBe(false);
    vi.advanceTimersByTime(idleMs / 4 + 1);
    expect(watch.signal.aborted).toBe(true);
    expect(watch.end()).toBe(true);
    state.modelWatch.close();
  });

  it('a silent stream from the start fires at the setting', () => {
    const state = runState();
    const watch = watchModelCall(state, 400);
    vi.advanceTimersByTime(399);
    expect(watch.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(watch.signal.aborted).toBe(true);
    state.modelWatch.close();
  });

  it('an overlapping call has its own watch with the same precision', () => {
    const state = runState();
    const first = watchModelCall(state, 400);
    const second = watchModelCall(state, 400);
    expect(second).not.toBe(first);
    vi.advanceTimersByTime(101);
    second.touch();
    first.touch();
    vi.advanceTimersByTime(399);
    expect(second.signal.aborted).toBe(false);
    vi.advanceTimersByTime(102);
    expect(second.signal.aborted).toBe(true);
    expect(second.end()).toBe(true);
    first.end();
    state.modelWatch.close();
  });

  it('an abort of the run is not an idle cut-off', () => {
    const state = runState();
    const watch = watchModelCall(state, 400);
    state.abort.abort();
    expect(watch.signal.aborted).toBe(true);
    expect(watch.end()).toBe(false);
    state.modelWatch.close();
  });
});
