import type { RunAbort } from './run-abort.js';

/**
 * Makes `target` abort when `source` does. Returns the function that unlinks
 * them, which must be called so no listener outlives the work.
 */
export function linkAbort(
  source: AbortSignal | undefined,
  target: { abort(reason?: unknown): void },
): () => void {
  if (source === undefined) return noop;
  if (source.aborted) {
    target.abort(source.reason);
    return noop;
  }
  const onAbort = () => target.abort(source.reason);
  source.addEventListener('abort', onAbort, { once: true });
  return () => source.removeEventListener('abort', onAbort);
}

/**
 * Waits `ms` milliseconds, or less if the run aborts first; resolves `true`
 * when the full time passed. Reads no signal and leaves no callback or timer behind.
 */
export function sleep(ms: number, run: RunAbort): Promise<boolean> {
  if (run.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      stop();
      resolve(true);
    }, ms);
    const stop = run.onAbort(() => {
      clearTimeout(timer);
      resolve(false);
    });
  });
}

function noop(): void {}
