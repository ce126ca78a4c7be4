import { useEffect, useState } from 'preact/hooks';
import { getJson } from './api.js';

/** What the studio says of its store: its last error, if any, or that the studio itself cannot be reached. */
export interface StoreStatus {
  error: string | undefined;
}

type Listener = (error: string | undefined) => void;
const listeners = new Set<Listener>();

/** Tells the banner that a request found the store failing (or working again, with undefined). */
export function reportStore(error: string | undefined): void {
  for (const listener of listeners) listener(error);
}

/**
 * The store's state, from `/api/status` every few seconds and from what any
 * request of the page found: the banner shows while it fails and goes away by
 * itself once the store answers again.
 */
export function useStoreStatus(): StoreStatus {
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    listeners.add(setError);
    let stopped = false;
    const check = async () => {
      try {
        const status = await getJson<{ storeError: string | null }>('/api/status');
        if (!stopped) setError(status.storeError ?? undefined);
      } catch (problem) {
        if (!stopped) setError(`The studio cannot be reached: ${(problem as Error).message}`);
      }
    };
    const timer = setInterval(check, 3000);
    void check();
    return () => {
      stopped = true;
      clearInterval(timer);
      listeners.delete(setError);
    };
  }, []);
  return { error };
}

/** The banner: the store's error and that the studio keeps trying. */
export function StoreBanner({ status }: { status: StoreStatus }) {
  if (status.error === undefined) return null;
  return (
    <div class="banner error" role="alert">
      <strong>The session store cannot be read.</strong> {status.error} The studio keeps trying and shows what
      it read last.
    </div>
  );
}
