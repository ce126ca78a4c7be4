import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SessionBusyError, type SessionLease, SessionNotFoundError } from '@agent-core/core';
import { sampleEvents, sampleSessionState, sessionStoreConformance } from '@agent-core/core/testing';
import { afterEach, describe, expect, it, test } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import { recordingLogger } from './test-support/recording-logger.js';
import { useTemporaryRoots } from './test-support/temporary-roots.js';
import { rejectionOf } from './test-support/rejection-of.js';

const root = useTemporaryRoots('store-file-lease-');
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A root holding one stored session, `id`. */
async function rootWith(id: string): Promise<string> {
  const folder = await root();
  await new FileSessionStore({ root: folder }).save(sampleSessionState(id), { expectedVersion: 0 });
  return folder;
}

sessionStoreConformance(
  async () => new FileSessionStore({ root: await root() }),
  { test, describe },
  {
    leases: true,
    reopen: (store) => new FileSessionStore({ root: (store as FileSessionStore).root }),
    // Leases taken as a process that has exited: every other store sees a crashed holder.
    stoppedHolder: (store) =>
      new FileSessionStore({
        root: (store as FileSessionStore).root,
        processId: deadPid(),
        logger: recordingLogger().logger,
      }),
  },
);

function runText(holder: { pid: number; host: string; at: Date; token?: string }): string {
  return JSON.stringify({
    pid: holder.pid,
    host: holder.host,
    at: holder.at.toISOString(),
    token: holder.token ?? 'theirs',
  });
}

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid as number;
}

function busy(lease: Promise<SessionLease>): Promise<SessionBusyError> {
  return rejectionOf(lease, SessionBusyError, 'expected the lease to be busy, and it was taken');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('FileSessionStore.lease: one run of a session at a time, across processes', () => {
  it('is exclusive: another store gets SessionBusyError naming this process, and takes it after release', async () => {
    const folder = await rootWith('held');
    const one = new FileSessionStore({ root: folder });
    const two = new FileSessionStore({ root: folder });
    const lease = await one.lease('held');
    expect(JSON.parse(await readFile(join(folder, 'held', '.run'), 'utf8'))).toMatchObject({
      pid: process.pid,
      host: hostname(),
      token: expect.any(String),
    });

    const error = await busy(two.lease('held'));
    expect(error.code).toBe('session_busy');
    expect(error.sessionId).toBe('held');
    expect(error.holder).toContain(`process ${process.pid} on ${hostname()} (since `);
    // The same store is no exception: a lease is one run.
    await busy(one.lease('held'));

    await lease.release();
    await lease.release();
    expect((await readdir(join(folder, 'held'))).sort()).toEqual(['session.json', 'summary.json']);
    const taken = await two.lease('held');
    await busy(one.lease('held'));
    await taken.release();
  });

  it('a .run left by a process that has exited is broken and taken, with a warning', async () => {
    const folder = await rootWith('left');
    const { warnings, logger } = recordingLogger();
    const store = new FileSessionStore({ root: folder, logger });
    const run = join(folder, 'left', '.run');
    await writeFile(run, runText({ pid: deadPid(), host: hostname(), at: new Date() }));
    const lease = await store.lease('left');
    expect(JSON.parse(await readFile(run, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    expect(warnings.map((warning) => warning.message)).toEqual(['a stale session lease was broken']);
    await lease.release();
    expect((await readdir(join(folder, 'left'))).sort()).toEqual(['session.json', 'summary.json']);
  });

  it('a .run held by a live process is busy until that process is killed, then taken at once', async () => {
    const folder = await rootWith('child');
    const child = spawn(
      process.execPath,
      [join(import.meta.dirname, '__fixtures__', 'lease-child.mjs'), folder, 'child', '60000'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    children.push(child);
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`lease child exited with ${code}`)));
      child.stdout.once('data', () => resolve());
    });
    const store = new FileSessionStore({ root: folder });
    const error = await busy(store.lease('child'));
    expect(error.holder).toContain(`process ${child.pid} on ${hostname()}`);

    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const lease = await store.lease('child');
    await lease.release();
  });

  it('a .run from another host is taken once older than leaseStaleMs, and busy while fresh', async () => {
    const folder = await rootWith('remote');
    const store = new FileSessionStore({ root: folder, leaseStaleMs: 5_000 });
    const run = join(folder, 'remote', '.run');
    // A pid alive here says nothing about a process on another host: only the age counts.
    const fresh = { pid: deadPid(), host: 'elsewhere-1', at: new Date() };
    await writeFile(run, runText(fresh));
    const error = await busy(store.lease('remote'));
    expect(error.holder).toBe(`process ${fresh.pid} on elsewhere-1 (since ${fresh.at.toISOString()})`);
    expect(JSON.parse(await readFile(run, 'utf8')).host).toBe('elsewhere-1');

    await writeFile(run, runText({ ...fresh, at: new Date(Date.now() - 6_000) }));
    const lease = await store.lease('remote');
    expect(JSON.parse(await readFile(run, 'utf8')).host).toBe(hostname());
    await lease.release();
  });

  it('the heartbeat keeps a lease held past leaseStaleMs from going stale', async () => {
    const folder = await rootWith('beating');
    // Long enough that a busy machine's late timers never let it lapse; short enough to outlast a few times.
    const one = new FileSessionStore({ root: folder, leaseStaleMs: 1_200 });
    const two = new FileSessionStore({ root: folder, leaseStaleMs: 1_200 });
    const lease = await one.lease('beating');
    const run = join(folder, 'beating', '.run');
    const first = JSON.parse(await readFile(run, 'utf8'));
    // Past leaseStaleMs a .run is stale whoever holds it, a live pid or not: only the renewals keep it.
    const started = Date.now();
    while (Date.now() - started < 3_000) {
      await busy(two.lease('beating'));
      await sleep(100);
    }
    const renewed = JSON.parse(await readFile(run, 'utf8'));
    expect(renewed.token).toBe(first.token);
    expect(Date.parse(renewed.at)).toBeGreaterThan(Date.parse(first.at));
    await lease.release();
    const taken = await two.lease('beating');
    await taken.release();
  });

  it('a lease broken by someone else while held: its heartbeat stops with a warning, and release leaves the new holder', async () => {
    const folder = await rootWith('broken');
    const { warnings, logger } = recordingLogger();
    const store = new FileSessionStore({ root: folder, logger, leaseStaleMs: 300 });
    const lease = await store.lease('broken');
    const run = join(folder, 'broken', '.run');
    const theirs = runText({ pid: 4242, host: 'elsewhere-3', at: new Date(), token: 'their-token' });
    // Written again while a beat in flight puts ours back: the race a real breaker can lose too.
    while (!warnings.some((warning) => warning.message.includes('no longer renewed'))) {
      if ((await readFile(run, 'utf8')) !== theirs) await writeFile(run, theirs);
      await sleep(20);
    }
    expect(warnings.at(-1)).toEqual({
      message: 'a held session lease was taken over or removed; it is no longer renewed',
      fields: { path: run },
    });
    // A stopped heartbeat writes nothing more: theirs stays through a few beats' time, and through our release.
    await sleep(300);
    expect(await readFile(run, 'utf8')).toBe(theirs);
    await lease.release();
    expect(await readFile(run, 'utf8')).toBe(theirs);
  });

  it('a session never stored: SessionNotFoundError, and no folder is created', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder });
    await expect(store.lease('ghost')).rejects.toBeInstanceOf(SessionNotFoundError);
    expect(await readdir(folder)).toEqual([]);
    const missingRoot = join(folder, 'not-yet');
    await expect(new FileSessionStore({ root: missingRoot }).lease('ghost')).rejects.toBeInstanceOf(
      SessionNotFoundError,
    );
    expect(await readdir(folder)).toEqual([]);
  });

  it('a session deleted since this store read it: SessionNotFoundError, and no folder is created', async () => {
    const folder = await rootWith('gone');
    const store = new FileSessionStore({ root: folder });
    await store.append('gone', sampleEvents('a'), { operationId: 'op-a' });
    expect(await new FileSessionStore({ root: folder }).delete('gone')).toBe(true);
    await expect(store.lease('gone')).rejects.toBeInstanceOf(SessionNotFoundError);
    expect(await readdir(folder)).toEqual([]);
  });

  it('load, save, append and read keep working while the lease is held, in this store and another', async () => {
    const folder = await rootWith('open');
    const one = new FileSessionStore({ root: folder });
    const two = new FileSessionStore({ root: folder });
    const lease = await one.lease('open');
    expect((await one.load('open')).version).toBe(1);
    expect(await one.save(sampleSessionState('open'), { expectedVersion: 1 })).toEqual({ version: 2 });
    expect(await one.append('open', sampleEvents('a'), { operationId: 'op-a' })).toEqual({
      firstSeq: 1,
      lastSeq: 4,
    });
    expect((await two.load('open')).version).toBe(2);
    expect(await two.save(sampleSessionState('open'), { expectedVersion: 2 })).toEqual({ version: 3 });
    expect(await two.append('open', sampleEvents('b'), { operationId: 'op-b' })).toEqual({
      firstSeq: 5,
      lastSeq: 8,
    });
    expect((await one.read('open')).map((record) => record.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await two.read('open', { fromSeq: 7 })).map((record) => record.seq)).toEqual([7, 8]);
    await busy(two.lease('open'));
    await lease.release();
  });

  it('refuses a leaseStaleMs that is not a positive number of milliseconds', () => {
    for (const leaseStaleMs of [Number.NaN, 0, -1, Number.POSITIVE_INFINITY]) {
      expect(() => new FileSessionStore({ root: '/tmp/x', leaseStaleMs })).toThrow(/leaseStaleMs/);
    }
  });
});
