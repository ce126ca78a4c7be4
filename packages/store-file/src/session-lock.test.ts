import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionConflictError, SessionStorageError } from '@agent-core/core';
import { sampleSessionState } from '@agent-core/core/testing';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from './file-session-store.js';

const root = () => mkdtemp(join(tmpdir(), 'store-file-lock-'));

function lockText(pid: number, at: Date): string {
  return JSON.stringify({ pid, host: hostname(), at: at.toISOString() });
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid as number;
}

describe('FileSessionStore: saves are compare-and-swap across writers', () => {
  it('two stores saving from the same version: exactly one wins each round, the other gets SessionConflictError', async () => {
    const folder = await root();
    const one = new FileSessionStore({ root: folder });
    const two = new FileSessionStore({ root: folder });
    const state = sampleSessionState('raced');
    await one.save(state, { expectedVersion: 0 });
    for (let version = 1; version <= 40; version++) {
      const outcomes = await Promise.allSettled([
        one.save({ ...state, metadata: { by: 'one', version } }, { expectedVersion: version }),
        two.save({ ...state, metadata: { by: 'two', version } }, { expectedVersion: version }),
      ]);
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(won[0]?.value).toEqual({ version: version + 1 });
      expect(lost[0]?.reason).toBeInstanceOf(SessionConflictError);
      const stored = await one.load('raced');
      expect(stored.version).toBe(version + 1);
      expect(stored.metadata.by).toBe(outcomes[0]?.status === 'fulfilled' ? 'one' : 'two');
    }
    expect((await readdir(join(folder, 'raced'))).sort()).toEqual(['session.json', 'summary.json']);
  });

  it('a stale save of a session never stored leaves no folder behind', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder });
    await expect(store.save(sampleSessionState('ghost'), { expectedVersion: 3 })).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    expect(await readdir(folder)).toEqual([]);
    expect(await store.delete('ghost')).toBe(false);
  });

  it('a lock left by a process that is gone is broken, with a warning', async () => {
    const folder = await root();
    const warnings: string[] = [];
    const logger = {
      debug() {},
      info() {},
      error() {},
      warn: (message: string) => void warnings.push(message),
    };
    const store = new FileSessionStore({ root: folder, logger });
    await store.save(sampleSessionState('left'), { expectedVersion: 0 });
    await writeFile(join(folder, 'left', '.lock'), lockText(deadPid(), new Date()));
    expect(await store.save(sampleSessionState('left'), { expectedVersion: 1 })).toEqual({ version: 2 });
    expect(warnings).toEqual(['a stale session lock was broken']);
    expect((await readdir(join(folder, 'left'))).sort()).toEqual(['session.json', 'summary.json']);
  });

  it('a lock older than 30 s is broken even if its holder lives', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder });
    await store.save(sampleSessionState('old'), { expectedVersion: 0 });
    await writeFile(join(folder, 'old', '.lock'), lockText(process.pid, new Date(Date.now() - 60_000)));
    expect(await store.save(sampleSessionState('old'), { expectedVersion: 1 })).toEqual({ version: 2 });
  });

  it('an empty lock file (a holder that stopped between create and write) is broken', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder });
    await store.save(sampleSessionState('torn'), { expectedVersion: 0 });
    await writeFile(join(folder, 'torn', '.lock'), '');
    expect(await store.save(sampleSessionState('torn'), { expectedVersion: 1 })).toEqual({ version: 2 });
  });

  it('a lock a live holder keeps past lockTimeoutMs gives a typed storage error naming the lock file; nothing is written', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder, lockTimeoutMs: 30 });
    await store.save(sampleSessionState('held'), { expectedVersion: 0 });
    const lock = join(folder, 'held', '.lock');
    await writeFile(lock, lockText(process.pid, new Date()));
    const error = await store
      .save({ ...sampleSessionState('held'), metadata: { changed: true } }, { expectedVersion: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SessionStorageError);
    expect(error).toMatchObject({ code: 'session_storage_locked', problem: 'locked', path: lock });
    expect((error as Error).message).toContain(`process ${process.pid} on ${hostname()}`);
    expect((error as Error).message).toContain('remove the lock file if no process uses the session');
    expect((await store.load('held')).version).toBe(1);
    expect((await store.load('held')).metadata).not.toHaveProperty('changed');
  });

  it('the lock is released when the write fails, so the next save goes through', async () => {
    const folder = await root();
    let failNext = true;
    const store = new FileSessionStore({
      root: folder,
      lockTimeoutMs: 30,
      operations: {
        async writeNew(path, data) {
          if (failNext) {
            failNext = false;
            throw Object.assign(new Error('ENOSPC: simulated'), { code: 'ENOSPC' });
          }
          await writeFile(path, data, { flag: 'wx' });
        },
      },
    });
    await mkdir(join(folder, 'full'));
    await expect(store.save(sampleSessionState('full'), { expectedVersion: 0 })).rejects.toMatchObject({
      code: 'session_storage_full',
    });
    expect(await readdir(join(folder, 'full'))).toEqual([]);
    expect(await store.save(sampleSessionState('full'), { expectedVersion: 0 })).toEqual({ version: 1 });
  });

  it('refuses a lockTimeoutMs that is not a number of milliseconds', () => {
    expect(() => new FileSessionStore({ root: '/tmp/x', lockTimeoutMs: Number.NaN })).toThrow(
      /lockTimeoutMs/,
    );
  });
});
