import { describe, expect, it } from 'vitest';
import type { StreamOptions } from '../index.js';
import { inlineProvider, textDone } from '../test-support/inline-provider.js';
import { LazyStreamOptions } from './lazy-signal.js';
import { SharedModelWatch } from './model-call-watch.js';
import { stepAgent } from '../test-support/step-agent.js';

describe("the model calls' stream options", () => {
  it('make the signal only when read, keep it once read, and copy it when spread', () => {
    let made = 0;
    const controller = new AbortController();
    const options = new LazyStreamOptions({
      get signal() {
        made++;
        return controller.signal;
      },
    });
    expect(made).toBe(0);
    expect(Object.keys(options)).toEqual(['signal']);
    const copy: StreamOptions = { ...options };
    expect(copy.signal).toBe(controller.signal);
    expect(options.signal).toBe(controller.signal);
    expect(made).toBe(1);
  });

  it("are one object per controller of the run's shared watch, which makes no controller until the signal is read", () => {
    const watch = new SharedModelWatch();
    const options = watch.options;
    expect(watch.options).toBe(options);
    expect(watch.controller).toBeUndefined();
    const signal = options.signal;
    expect(watch.controller?.signal).toBe(signal);
    // An idle cut-off lets the controller go: the next call gets fresh options and a fresh signal.
    watch.resetController();
    expect(watch.options).not.toBe(options);
    expect(watch.options.signal).not.toBe(signal);
  });

  it('give a provider that reads the signal one that aborts with the run', async () => {
    const seen: (AbortSignal | undefined)[] = [];
    let release: () => void = () => {};
    const agent = stepAgent({
      provider: inlineProvider([
        (_request, signal) => {
          seen.push(signal);
          return (async function* () {
            yield textDone('first');
          })();
        },
      ]),
    });
    await agent.prompt('one').result();
    expect(seen[0]).toBeInstanceOf(AbortSignal);

    const waiting = stepAgent({
      provider: {
        name: 'slow',
        async *stream(_request, options) {
          const signal = options?.signal as AbortSignal;
          seen.push(signal);
          await new Promise<void>((resolve) => {
            release = resolve;
            signal.addEventListener('abort', () => resolve(), { once: true });
          });
          yield textDone('late');
        },
      },
    });
    const run = waiting.prompt('two');
    await new Promise((resolve) => setTimeout(resolve, 5));
    run.abort();
    const result = await run.result();
    release();
    expect(result.terminateReason).toBe('aborted');
    expect(seen[1]?.aborted).toBe(true);
  });
});
