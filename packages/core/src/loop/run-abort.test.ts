import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import type { Orchestrator } from '../orchestrator/orchestrator.js';
import { RunAbort } from './run-abort.js';

describe('RunAbort', () => {
  it('aborts once, runs its callbacks in order before the signal fires, and keeps the first reason', () => {
    const run = new RunAbort();
    const seen: string[] = [];
    const signal = run.signal;
    signal.addEventListener('abort', () => seen.push(`signal ${String(signal.reason)}`));
    run.onAbort((reason) => seen.push(`first ${String(reason)}`));
    run.onAbort(() => seen.push('second'));
    run.abort('stop');
    run.abort('again');
    expect(seen).toEqual(['first stop', 'second', 'signal stop']);
    expect(run.aborted).toBe(true);
    expect(run.reason).toBe('stop');
  });

  it('gives a signal read after the abort already aborted, with the same reason', () => {
    const run = new RunAbort();
    run.abort();
    expect(run.reason).toBeInstanceOf(DOMException);
    expect((run.reason as DOMException).name).toBe('AbortError');
    expect(run.signal.aborted).toBe(true);
    expect(run.signal.reason).toBe(run.reason);
  });

  it('calls a callback added after the abort at once, and never one that was removed', () => {
    const run = new RunAbort();
    let removedCalled = false;
    const remove = run.onAbort(() => {
      removedCalled = true;
    });
    remove();
    run.abort('late');
    expect(removedCalled).toBe(false);
    let reason: unknown;
    run.onAbort((given) => {
      reason = given;
    });
    expect(reason).toBe('late');
  });

  it('lets a callback remove itself or another while the abort runs them', () => {
    const run = new RunAbort();
    const seen: string[] = [];
    const removeSecond = run.onAbort(() => {
      seen.push('first');
      removeSecond();
    });
    run.onAbort(() => seen.push('second'));
    run.abort();
    expect(seen).toEqual(['first', 'second']);
  });
});

describe('ctx.aborted', () => {
  it('is false while the run goes on and true once it is aborted, like ctx.signal.aborted', async () => {
    const seen: [boolean, boolean][] = [];
    const orchestrator: Orchestrator = {
      name: 'watching',
      async run(ctx) {
        seen.push([ctx.aborted, ctx.signal.aborted]);
        agent.abort();
        seen.push([ctx.aborted, ctx.signal.aborted]);
        return { reason: 'completed' };
      },
    };
    const agent = new Agent({
      provider: { name: 'unused', stream: async function* () {} },
      model: 'm',
      orchestrator,
    });
    const result = await agent.prompt('hi').result();
    expect(seen).toEqual([
      [false, false],
      [true, true],
    ]);
    expect(result.terminateReason).toBe('aborted');
  });
});
