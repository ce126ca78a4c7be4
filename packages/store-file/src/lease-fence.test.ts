import { spawnSync } from 'node:child_process';
import { renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConfigError, newSessionState, SessionLeaseLostError } from '@agent-core/core';
import { sampleEvents } from '@agent-core/core/testing';
import { describe, expect, it } from 'vitest';
import { nodeFileOperations } from './file-operations.js';
import { FileSessionStore } from './file-session-store.js';
import { recordingLogger } from './test-support/recording-logger.js';
import { useTemporaryRoots } from './test-support/temporary-roots.js';

const temporaryRoot = useTemporaryRoots('store-file-fence-');

/** A root holding the sessions `ids`, each saved once. */
async function rootWith(...ids: string[]): Promise<string> {
  const folder = await temporaryRoot();
  for (const id of ids)
    await new FileSessionStore({ root: folder }).save(newSessionState({ id }), { expectedVersion: 0 });
  return folder;
}

const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid as number;

/** Blocks this process's event loop, as a frozen or overloaded process would be. */
function freeze(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {}
}

describe('writes under a lease', () => {
  it('another FileSessionStore on the same root (spelled another way) honours a lease this one took', async () => {
    const folder = await rootWith('s');
    const lease = await new FileSessionStore({ root: folder }).lease('s');
    const other = new FileSessionStore({ root: `${folder}/./` });
    await expect(other.append('s', sampleEvents('a'), { operationId: 'a', lease })).resolves.toEqual({
      firstSeq: 1,
      lastSeq: 4,
    });
    const state = await other.load('s');
    await expect(other.save(state, { expectedVersion: 1, lease })).resolves.toEqual({ version: 2 });
    await lease.release();
  });

  it('a lease that is not a FileSessionStore’s, another session’s, or released: ConfigError, nothing written', async () => {
    const folder = await rootWith('s', 't');
    const store = new FileSessionStore({ root: folder });
    const others = await store.lease('t');
    const released = await store.lease('s');
    await released.release();
    for (const lease of [{ release: async () => {} }, others, released]) {
      const error = await store
        .append('s', sampleEvents('a'), { operationId: 'a', lease })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ConfigError);
      await expect(
        store.save(newSessionState({ id: 's' }), { expectedVersion: 1, lease }),
      ).rejects.toBeInstanceOf(ConfigError);
    }
    expect(await store.read('s')).toEqual([]);
    expect((await store.load('s')).version).toBe(1);
    await others.release();
  });

  it('a save under a lease taken over writes nothing: snapshot and summary stay', async () => {
    const folder = await rootWith('s');
    const ghost = new FileSessionStore({
      root: folder,
      processId: deadPid(),
      logger: recordingLogger().logger,
    });
    const stale = await ghost.lease('s');
    const taken = await new FileSessionStore({ root: folder, logger: recordingLogger().logger }).lease('s');
    const files = ['session.json', 'summary.json'].map((name) => join(folder, 's', name));
    const before = await Promise.all(files.map((path) => readFile(path)));
    const error = await ghost
      .save(newSessionState({ id: 's' }), { expectedVersion: 1, lease: stale })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SessionLeaseLostError);
    expect((error as Error).message).toContain(`process ${process.pid} on ${hostname()}`);
    expect(await Promise.all(files.map((path) => readFile(path)))).toEqual(before);
    await taken.release();
  });
});

describe('the heartbeat of a lease', () => {
  it('never writes over a holder that took the lease while a beat was under way', async () => {
    const folder = await rootWith('s');
    const run = join(folder, 's', '.run');
    const theirs = JSON.stringify({
      pid: 4242,
      host: 'elsewhere',
      at: new Date().toISOString(),
      token: 'theirs',
    });
    let takeOver = false;
    // What a taker does: the old file moved aside, a new one created in its place.
    const takeOverNow = () => {
      takeOver = false;
      renameSync(run, `${run}.taken`);
      writeFileSync(run, theirs, { flag: 'wx' });
      unlinkSync(`${run}.taken`);
    };
    const { warnings, logger } = recordingLogger();
    const store = new FileSessionStore({
      root: folder,
      logger,
      leaseStaleMs: 300,
      operations: {
        // The beat has read its lease and is about to write it again: at that moment another process takes it.
        rewriteIf: (path, data, accept) =>
          nodeFileOperations.rewriteIf(path, data, (current) => {
            const accepted = accept(current);
            if (takeOver && accepted) takeOverNow();
            return accepted;
          }),
        createExclusive(path, data) {
          if (takeOver && path.startsWith(`${run}.`) && path.endsWith('.tmp')) takeOverNow();
          return nodeFileOperations.createExclusive(path, data);
        },
      },
    });
    const lease = await store.lease('s');
    takeOver = true;
    while (takeOver) await new Promise((resolve) => setTimeout(resolve, 20));
    // Its next beat finds the new holder and stops.
    while (!warnings.some((warning) => warning.message.includes('no longer renewed')))
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await readFile(run, 'utf8')).toBe(theirs);
    await expect(
      store.append('s', sampleEvents('late'), { operationId: 'late', lease }),
    ).rejects.toBeInstanceOf(SessionLeaseLostError);
    expect(await store.read('s')).toEqual([]);
    await lease.release();
    expect(await readFile(run, 'utf8')).toBe(theirs);
  });

  it('a holder frozen past its lease that nobody took: its next write takes the lease back and goes on', async () => {
    const folder = await rootWith('s');
    const store = new FileSessionStore({ root: folder, leaseStaleMs: 200, logger: recordingLogger().logger });
    const lease = await store.lease('s');
    const run = join(folder, 's', '.run');
    const before = JSON.parse(await readFile(run, 'utf8'));
    freeze(300);
    await expect(store.append('s', sampleEvents('a'), { operationId: 'a', lease })).resolves.toEqual({
      firstSeq: 1,
      lastSeq: 4,
    });
    const after = JSON.parse(await readFile(run, 'utf8'));
    expect(after.token).toBe(before.token);
    expect(Date.parse(after.at)).toBeGreaterThan(Date.parse(before.at) + 250);
    await lease.release();
  });
});

describe('processId', () => {
  it('is the pid the leases are taken as: one of an exited process is taken by the next store, with a warning', async () => {
    const folder = await rootWith('s');
    const pid = deadPid();
    await new FileSessionStore({ root: folder, processId: pid }).lease('s');
    expect(JSON.parse(await readFile(join(folder, 's', '.run'), 'utf8')).pid).toBe(pid);
    const { warnings, logger } = recordingLogger();
    const lease = await new FileSessionStore({ root: folder, logger }).lease('s');
    expect(warnings.map((warning) => warning.message)).toEqual(['a stale session lease was broken']);
    await lease.release();
  });

  it('refuses what is not a pid', () => {
    for (const processId of [0, -1, 1.5, Number.NaN]) {
      expect(() => new FileSessionStore({ root: '/tmp/x', processId })).toThrow(
        expect.objectContaining({
          code: 'invalid_config',
          message: expect.stringMatching(/processId must be a positive whole number \(a pid\)/),
        }),
      );
    }
  });
});
