import { spawn } from 'node:child_process';
import { readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  restoreSession,
  type SessionPage,
  type SessionState,
  type SessionStatus,
  summaryOf,
} from '@agent-core/core';
import { sampleSessionState } from '@agent-core/core/testing';
import { describe, expect, it } from 'vitest';
import { type FileOperations, nodeFileOperations } from './file-operations.js';
import { FileSessionStore } from './file-session-store.js';
import { recordingLogger } from './test-support/recording-logger.js';
import { useTemporaryRoots } from './test-support/temporary-roots.js';

const root = useTemporaryRoots('store-file-summaries-');

/** A store that records the snapshots it reads, plus any file operations to stand in. */
function watched(folder: string, operations: Partial<FileOperations> = {}) {
  const snapshotReads: string[] = [];
  const { warnings, logger } = recordingLogger();
  const store = new FileSessionStore({
    root: folder,
    logger,
    operations: {
      ...operations,
      readFile(path) {
        if (path.endsWith('session.json')) snapshotReads.push(path);
        return nodeFileOperations.readFile(path);
      },
    },
  });
  return { store, snapshotReads, warnings };
}

/** Every page of `store.list` with `limit`, cursors included. */
async function allPages(store: FileSessionStore, limit: number): Promise<SessionPage[]> {
  const pages: SessionPage[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list({ limit, ...(cursor === undefined ? {} : { cursor }) });
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return pages;
}

async function removeSummaries(folder: string): Promise<void> {
  for (const name of await readdir(folder)) await rm(join(folder, name, 'summary.json'), { force: true });
}

/** Saves `state` `times` times, as runs of a session would; returns what is stored. */
async function saveTimes(store: FileSessionStore, state: SessionState, times: number): Promise<SessionState> {
  let version = 0;
  for (let save = 0; save < times; save++) {
    ({ version } = await store.save({ ...state, version }, { expectedVersion: version }));
  }
  return { ...state, version };
}

/** Sessions in every status, with ties on updatedAt, saved once to three times. */
async function seed(store: FileSessionStore): Promise<string[]> {
  const statuses: SessionStatus[] = ['idle', 'running', 'interrupted', 'await_user'];
  const ids: string[] = [];
  for (let index = 0; index < 9; index++) {
    const id = `s-${index}`;
    const state = sampleSessionState(id, `2026-01-0${1 + (index % 4)}T00:00:00.000Z`);
    state.status = statuses[index % 4] as SessionStatus;
    state.metadata = { ...state.metadata, index, tags: [`t${index}`], empty: {}, nothing: null };
    await saveTimes(store, state, 1 + (index % 3));
    ids.push(id);
  }
  return ids;
}

async function expectedSummary(store: FileSessionStore, id: string) {
  return summaryOf(await store.load(id));
}

describe('FileSessionStore: list reads summary.json', () => {
  it('lists sessions saved by this version without reading any session.json, page for page as the snapshots give', async () => {
    const folder = await root();
    const writer = watched(folder);
    const ids = await seed(writer.store);
    writer.snapshotReads.length = 0;
    // The store that saved them lists from memory; another process, from each summary.json.
    const fromMemory = await allPages(writer.store, 4);
    expect(writer.snapshotReads).toEqual([]);
    const { store, snapshotReads, warnings } = watched(folder);

    const fromSummaries = await allPages(store, 4);
    expect(snapshotReads).toEqual([]);
    expect(fromSummaries).toHaveLength(3);
    expect(fromSummaries).toEqual(fromMemory);
    const first = await store.list();
    expect(first.sessions.map((summary) => summary.id).sort()).toEqual(ids);
    expect(snapshotReads).toEqual([]);

    // A summary handed out is a copy: changing it changes nothing stored, in memory or not.
    (first.sessions[0] as { metadata: Record<string, unknown> }).metadata.title = 'changed';
    expect((await store.list()).sessions[0]?.metadata.title).toBe('sample');
    const remembered = await writer.store.list();
    (remembered.sessions[0] as { metadata: Record<string, unknown> }).metadata.title = 'changed';
    expect((await writer.store.list()).sessions[0]?.metadata.title).toBe('sample');

    await removeSummaries(folder);
    const fromSnapshots = await allPages(store, 4);
    expect(snapshotReads).toHaveLength(ids.length * 3);
    expect(fromSummaries).toEqual(fromSnapshots);
    expect(warnings).toEqual([]);
  });

  it('a session saved before summaries existed (no summary.json) is listed from its snapshot, and its next save writes one', async () => {
    const folder = await root();
    await seed(watched(folder).store);
    await unlink(join(folder, 's-4', 'summary.json'));
    const { store, snapshotReads } = watched(folder);

    const page = await store.list();
    expect(snapshotReads).toEqual([join(folder, 's-4', 'session.json')]);
    expect(page.sessions).toHaveLength(9);
    expect(page.sessions.find((summary) => summary.id === 's-4')).toEqual(
      await expectedSummary(store, 's-4'),
    );

    const stored = await store.load('s-4');
    await store.save(stored, { expectedVersion: stored.version });
    const next = watched(folder);
    const again = await next.store.list();
    expect(next.snapshotReads).toEqual([]);
    expect(again.sessions.find((summary) => summary.id === 's-4')?.version).toBe(stored.version + 1);
  });

  it('a corrupt, half-written or ill-typed summary.json is passed over for the snapshot, without a warning', async () => {
    const folder = await root();
    const { store, warnings } = watched(folder);
    type Stored = { version: number; snapshotBytes: number; summary: Record<string, unknown> };
    const withSummary = (good: Stored, fields: Record<string, unknown>) =>
      JSON.stringify({ ...good, summary: { ...good.summary, ...fields } });
    // Each made from the session's own summary, so only the named fault is wrong.
    const broken: Record<string, (good: Stored) => string> = {
      garbage: () => 'not json at all',
      empty: () => '',
      'empty-object': () => '{}',
      truncated: (good) => JSON.stringify(good).slice(0, 60),
      array: () => '[]',
      'version-text': (good) =>
        JSON.stringify({ ...good, version: '2', summary: { ...good.summary, version: '2' } }),
      'version-zero': (good) =>
        JSON.stringify({ ...good, version: 0, summary: { ...good.summary, version: 0 } }),
      'versions-differ': (good) => withSummary(good, { version: 1 }),
      'bytes-missing': (good) => JSON.stringify({ version: good.version, summary: good.summary }),
      'bytes-text': (good) => JSON.stringify({ ...good, snapshotBytes: String(good.snapshotBytes) }),
      'summary-missing': (good) =>
        JSON.stringify({ version: good.version, snapshotBytes: good.snapshotBytes }),
      'summary-text': (good) => JSON.stringify({ ...good, summary: 'idle' }),
      'status-unknown': (good) => withSummary(good, { status: 'asleep' }),
      'created-number': (good) => withSummary(good, { createdAt: 1 }),
      'updated-missing': (good) => withSummary(good, { updatedAt: undefined }),
      'metadata-array': (good) => withSummary(good, { metadata: [] }),
      'metadata-null': (good) => withSummary(good, { metadata: null }),
      'id-of-another': (good) => withSummary(good, { id: 'garbage' }),
    };
    for (const [id, damage] of Object.entries(broken)) {
      await saveTimes(store, { ...sampleSessionState(id), metadata: { id } }, 2);
      const path = join(folder, id, 'summary.json');
      await writeFile(path, damage(JSON.parse(await readFile(path, 'utf8'))));
    }

    const page = await store.list({ limit: 100 });
    expect(page.sessions.map((summary) => summary.id).sort()).toEqual(Object.keys(broken).sort());
    for (const summary of page.sessions) expect(summary).toEqual(await expectedSummary(store, summary.id));
    expect(warnings).toEqual([]);
  });

  it('a summary left from the previous save (a crash between the two renames) is not used: list shows the stored version', async () => {
    const folder = await root();
    const { store, snapshotReads } = watched(folder);
    const state = await saveTimes(store, sampleSessionState('crashed'), 1);
    const previous = await readFile(join(folder, 'crashed', 'summary.json'), 'utf8');
    const grown = { ...state, messages: [...state.messages, { role: 'user' as const, content: 'one more' }] };
    await store.save(grown, { expectedVersion: 1 });
    await writeFile(join(folder, 'crashed', 'summary.json'), previous);
    snapshotReads.length = 0;

    expect((await store.list()).sessions).toEqual([await expectedSummary(store, 'crashed')]);
    expect((await store.list()).sessions[0]?.version).toBe(2);
    expect(snapshotReads).toContain(join(folder, 'crashed', 'session.json'));
  });

  it('a lag the length check cannot see (a snapshot of the same length) lasts until the next save; load always gives the snapshot', async () => {
    const folder = await root();
    const { store } = watched(folder);
    const state = await saveTimes(store, { ...sampleSessionState('same'), metadata: { n: 1 } }, 1);
    const previous = await readFile(join(folder, 'same', 'summary.json'), 'utf8');
    await store.save({ ...state, metadata: { n: 2 } }, { expectedVersion: 1 });
    await writeFile(join(folder, 'same', 'summary.json'), previous);

    // The store that saved lists from memory; another process reads the summary file.
    expect((await store.list()).sessions[0]).toMatchObject({ version: 2, metadata: { n: 2 } });
    const other = watched(folder).store;
    expect((await other.list()).sessions[0]).toMatchObject({ version: 1, metadata: { n: 1 } });
    expect(await other.load('same')).toMatchObject({ version: 2, metadata: { n: 2 } });
    await store.save({ ...state, metadata: { n: 3 } }, { expectedVersion: 2 });
    expect((await other.list()).sessions).toEqual([await expectedSummary(store, 'same')]);
    expect((await other.list()).sessions[0]).toMatchObject({ version: 3, metadata: { n: 3 } });
  });

  it('a corrupt session.json with no usable summary is still left out with a warning; one removed by hand is left out quietly', async () => {
    const folder = await root();
    const { store, warnings } = watched(folder);
    for (const id of ['good', 'no-summary', 'edited', 'gone'])
      await saveTimes(store, sampleSessionState(id), 1);
    await unlink(join(folder, 'no-summary', 'summary.json'));
    await writeFile(join(folder, 'no-summary', 'session.json'), '{"id": "no-summary", ');
    // A snapshot edited by hand no longer has the length its summary was written for.
    await writeFile(join(folder, 'edited', 'session.json'), '{"id": "edited"}');
    await unlink(join(folder, 'gone', 'session.json'));

    expect((await store.list()).sessions.map((summary) => summary.id)).toEqual(['good']);
    expect(warnings.map((warning) => warning.fields?.path).sort()).toEqual([
      join(folder, 'edited'),
      join(folder, 'no-summary'),
    ]);
  });

  const enospc = () => Promise.reject(Object.assign(new Error('ENOSPC: simulated'), { code: 'ENOSPC' }));
  const isSummaryTemp = (path: string) => path.includes('.summary.json.');
  it.each([
    [
      'its rename fails',
      {
        rename: (from: string, to: string) =>
          isSummaryTemp(from) ? enospc() : nodeFileOperations.rename(from, to),
      },
    ],
    [
      'its temp file cannot be created',
      {
        createExclusive: (path: string, data: string) =>
          isSummaryTemp(path) ? enospc() : nodeFileOperations.createExclusive(path, data),
      },
    ],
  ])(
    'a summary write that fails (%s) leaves the save done, warns, and leaves no temp file; list shows the new version',
    async (_, operations) => {
      const folder = await root();
      await saveTimes(new FileSessionStore({ root: folder }), sampleSessionState('flaky'), 1);
      const { store, warnings } = watched(folder, operations);
      const stored = await store.load('flaky');
      await expect(store.save(stored, { expectedVersion: 1 })).resolves.toEqual({ version: 2 });

      expect(warnings).toHaveLength(1);
      expect(warnings[0]?.message).toContain('summary');
      expect(warnings[0]?.fields?.path).toBe(join(folder, 'flaky', 'summary.json'));
      // The older summary goes too, so list reads the snapshot rather than show version 1.
      expect(await readdir(join(folder, 'flaky'))).toEqual(['session.json']);
      expect((await store.load('flaky')).version).toBe(2);
      // This store lists from memory; another process has no summary to read, so it reads the snapshot.
      expect((await store.list()).sessions).toEqual([await expectedSummary(store, 'flaky')]);
      const other = watched(folder);
      const listed = (await other.store.list()).sessions;
      expect(other.snapshotReads).toEqual([join(folder, 'flaky', 'session.json')]);
      expect(listed).toEqual([await expectedSummary(store, 'flaky')]);
      expect(listed[0]?.version).toBe(2);

      // The next save that can write a summary writes it again.
      const healthy = watched(folder);
      await healthy.store.save(await healthy.store.load('flaky'), { expectedVersion: 2 });
      healthy.snapshotReads.length = 0;
      expect((await healthy.store.list()).sessions[0]?.version).toBe(3);
      expect(healthy.snapshotReads).toEqual([]);
    },
  );

  it('a save whose snapshot fails touches no summary: list keeps showing the stored version, from its summary', async () => {
    const folder = await root();
    await saveTimes(new FileSessionStore({ root: folder }), sampleSessionState('kept'), 1);
    const { store, snapshotReads } = watched(folder, {
      rename: (from, to) =>
        from.includes('.session.json.') ? enospc() : nodeFileOperations.rename(from, to),
    });
    const stored = await store.load('kept');
    await expect(
      store.save({ ...stored, metadata: { changed: true } }, { expectedVersion: 1 }),
    ).rejects.toMatchObject({
      code: 'session_storage_full',
    });
    snapshotReads.length = 0;
    expect((await store.list()).sessions).toEqual([summaryOf(stored)]);
    expect(snapshotReads).toEqual([]);
  });

  it('bytesWritten counts the summary with the snapshot', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder });
    await store.save(sampleSessionState('counted'), { expectedVersion: 0 });
    const sizes = await Promise.all(
      ['session.json', 'summary.json'].map(
        async (name) => (await readFile(join(folder, 'counted', name))).length,
      ),
    );
    expect(store.bytesWritten).toBe((sizes[0] as number) + (sizes[1] as number));
  });
});

describe('FileSessionStore: list after SIGKILL', () => {
  it('a process saving in a loop, killed 20 times: list always agrees with load', async () => {
    const folder = await root();
    let seed = 11;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    for (let round = 0; round < 20; round++) {
      await killSaveLoop(folder, 'looped', random() * 15);
      const store = new FileSessionStore({ root: folder });
      // The loop appends each message it saves too (with lastSeq 0): the summary counts the snapshot and the log.
      const { state } = await restoreSession(new FileSessionStore({ root: folder }), 'looped');
      expect((await store.list()).sessions).toEqual([summaryOf(state)]);
    }
  }, 60_000);
});

/** Runs the save-loop fixture (built `dist/`) on session `id` and kills it `delay` ms after it is ready. */
function killSaveLoop(folder: string, id: string, delay: number): Promise<void> {
  const script = join(import.meta.dirname, '__fixtures__', 'save-loop.mjs');
  const child = spawn(process.execPath, [script, folder, id], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', () => resolve());
    child.stdout.once('data', () => setTimeout(() => child.kill('SIGKILL'), delay));
  });
}
