import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSessionState } from '@agent-core/core';
import { FileSessionStore } from '@agent-core/store-file';

/**
 * Whether the installed FileSessionStore keeps `list` summaries current with
 * every append, as core's SessionStore contract asks (status `running` once a
 * run's start is logged). Tests of what `sessions list` shows between
 * snapshots, and of a session killed mid-run, need it; a store-file that
 * writes its summary only with snapshots lists the last snapshot instead.
 */
export async function summariesFollowAppends(): Promise<boolean> {
  const root = mkdtempSync(join(tmpdir(), 'agent-core-store-probe-'));
  try {
    const store = new FileSessionStore({ root });
    const state = newSessionState({ id: 'probe' });
    await store.save(state, { expectedVersion: 0 });
    await store.append(
      'probe',
      [{ type: 'run_started', runId: 'r', at: new Date().toISOString() }] as never,
      {
        operationId: 'probe-1',
      },
    );
    const { sessions } = await store.list();
    return sessions[0]?.status === 'running';
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Whether the installed FileSessionStore has `repair(id)`. */
export const storeCanRepair =
  typeof (FileSessionStore.prototype as { repair?: unknown }).repair === 'function';
