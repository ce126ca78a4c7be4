import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Waits for `condition` to hold, checking every 20 ms, and fails naming
 * `what` after `timeoutMs`: for what another process or the server's clock
 * decides (a lease lapsing, a child reaching a step), never a timing assertion.
 */
export async function until<Value>(
  condition: () => Promise<Value | undefined | false> | Value | undefined | false,
  what: string,
  timeoutMs = 20_000,
): Promise<Value> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
