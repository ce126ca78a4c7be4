import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SessionCassette, sessionCassette } from '@agent-core/cassette';
import { silentLogger } from '@agent-core/core';
import { FileSessionStore } from '@agent-core/store-file';

/**
 * What a file store's damaged session still holds before its damage. The
 * store refuses to read a log past a damaged line, so through the store the
 * replay gets the snapshot alone; here the session's two files are copied
 * into a folder of our own and the copy is repaired (cut back to just before
 * its damage), then read. The stored session is never touched. Undefined
 * when the copy cannot be repaired (a damaged snapshot) or holds no more.
 */
export async function salvageFileSession(
  root: string,
  id: string,
  read: SessionCassette,
): Promise<SessionCassette | undefined> {
  const copy = await mkdtemp(join(tmpdir(), 'agent-core-replay-'));
  try {
    await mkdir(join(copy, id));
    // The snapshot and the log only: a lease or lock file of a live process must not come along.
    for (const file of ['session.json', 'events.jsonl'])
      await copyFile(join(root, id, file), join(copy, id, file));
    const store = new FileSessionStore({ root: copy, logger: silentLogger });
    await store.repair(id);
    const salvaged = await sessionCassette(store, id);
    if (salvaged.damage !== undefined || salvaged.messages.length <= read.messages.length) return undefined;
    return { ...salvaged, ...(read.damage === undefined ? {} : { damage: read.damage }) };
  } catch {
    return undefined;
  } finally {
    await rm(copy, { recursive: true, force: true });
  }
}
