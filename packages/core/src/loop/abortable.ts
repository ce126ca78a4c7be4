/**
 * Waits `ms` milliseconds, or less if `signal` aborts first; resolves `true`
 * when the full time passed. Leaves no listener or timer behind.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Makes `target` abort when `source` does. Returns the function that unlinks
 * them, which must be called so no listener outlives the work.
 */
export function linkAbort(source: AbortSignal | undefined, target: AbortController): () => void {
  if (source === undefined) return noop;
  if (source.aborted) {
    target.abort(source.reason);
    return noop;
  }
  const onAbort = () => target.abort(source.reason);
  source.addEventListener('abort', onAbort, { once: true });
  return () => source.removeEventListener('abort', onAbort);
}

function noop(): void {}
