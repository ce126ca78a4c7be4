import { appendFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { sampleEvents, sampleSessionState } from '@agent-core/core/testing';
import { describe, expect, it } from 'vitest';
import { nodeFileOperations } from './file-operations.js';
import { FileSessionStore } from './file-session-store.js';
import { useTemporaryRoots } from './test-support/temporary-roots.js';

const temporaryRoot = useTemporaryRoots('store-file-shared-');

/** A root holding one stored session, `id`. */
async function rootWith(id: string): Promise<string> {
  const folder = await temporaryRoot();
  await new FileSessionStore({ root: folder }).save(sampleSessionState(id), { expectedVersion: 0 });
  return folder;
}

describe('FileSessionStore: one log written by several store instances, as by processes taking turns', () => {
  it('appends alternating between two stores get consecutive seqs, and each store reads what the other wrote', async () => {
    const folder = await rootWith('turns');
    const stores = [new FileSessionStore({ root: folder }), new FileSessionStore({ root: folder })];
    const seqs: number[] = [];
    for (let turn = 0; turn < 10; turn++) {
      const store = stores[turn % 2] as FileSessionStore;
      const { firstSeq, lastSeq } = await store.append('turns', sampleEvents(`t${turn}`), {
        operationId: `op-${turn}`,
      });
      expect(firstSeq).toBe(seqs.length + 1);
      for (let seq = firstSeq; seq <= lastSeq; seq++) seqs.push(seq);
    }
    for (const store of stores) {
      const records = await store.read('turns');
      expect(records.map((record) => record.seq)).toEqual(seqs.map((_, index) => index + 1));
      expect(new Set(records.map((record) => record.operationId)).size).toBe(10);
    }
    // A retry of an operation the other store wrote is recognised, not written twice.
    const retried = await (stores[0] as FileSessionStore).append('turns', sampleEvents('t9'), {
      operationId: 'op-9',
    });
    expect(retried.lastSeq).toBe(seqs.length);
    expect(await (stores[1] as FileSessionStore).read('turns')).toHaveLength(seqs.length);
  });

  it('read past the end returns nothing, then sees the records another store appends', async () => {
    const folder = await rootWith('tail');
    const reader = new FileSessionStore({ root: folder });
    const writer = new FileSessionStore({ root: folder });
    expect(await reader.read('tail', { fromSeq: 1 })).toEqual([]);
    await writer.append('tail', sampleEvents('a'), { operationId: 'op-a' });
    const all = await reader.read('tail');
    expect(all.map((record) => record.seq)).toEqual([1, 2, 3, 4]);
    expect(await reader.read('tail', { fromSeq: 5 })).toEqual([]);
    expect(await reader.read('tail', { fromSeq: 5 })).toEqual([]);
    await writer.append('tail', sampleEvents('b'), { operationId: 'op-b' });
    const newer = await reader.read('tail', { fromSeq: 5 });
    expect(newer.map((record) => [record.seq, record.operationId])).toEqual([
      [5, 'op-b'],
      [6, 'op-b'],
      [7, 'op-b'],
      [8, 'op-b'],
    ]);
    expect(await reader.append('tail', sampleEvents('c'), { operationId: 'op-c' })).toEqual({
      firstSeq: 9,
      lastSeq: 12,
    });
  });

  it('read past the end of a log no store grew since reads only its size', async () => {
    const folder = await rootWith('quiet');
    const logReads: string[] = [];
    const store = new FileSessionStore({
      root: folder,
      operations: {
        readFile(path) {
          if (path.endsWith('events.jsonl')) logReads.push(path);
          return nodeFileOperations.readFile(path);
        },
      },
    });
    await store.append('quiet', sampleEvents('a'), { operationId: 'op-a' });
    expect(logReads).toHaveLength(1);
    for (let run = 0; run < 3; run++) expect(await store.read('quiet', { fromSeq: 5 })).toEqual([]);
    expect(logReads).toHaveLength(1);
    await new FileSessionStore({ root: folder }).append('quiet', sampleEvents('b'), { operationId: 'op-b' });
    expect(await store.read('quiet', { fromSeq: 5 })).toHaveLength(4);
    expect(logReads).toHaveLength(2);
  });

  it('an unfinished last line is left alone while another live process runs the session, and set aside once none does', async () => {
    const folder = await rootWith('writing');
    await new FileSessionStore({ root: folder }).append('writing', sampleEvents('a'), {
      operationId: 'op-a',
    });
    const log = join(folder, 'writing', 'events.jsonl');
    const complete = await readFile(log, 'utf8');
    // Another process (this test's parent, alive) holds the lease and is in the middle of an append.
    const run = join(folder, 'writing', '.run');
    const holder = { pid: process.ppid, host: hostname(), at: new Date().toISOString(), token: 'theirs' };
    await writeFile(run, JSON.stringify(holder));
    await appendFile(log, '{"seq":5,"operationId":"op-b","event":{"type":"mess');
    const reader = new FileSessionStore({ root: folder });
    expect((await reader.read('writing')).map((record) => record.seq)).toEqual([1, 2, 3, 4]);
    expect(await readFile(log, 'utf8')).toBe(
      `${complete}{"seq":5,"operationId":"op-b","event":{"type":"mess`,
    );
    expect((await readdir(join(folder, 'writing'))).some((name) => name.includes('.corrupt-'))).toBe(false);

    // That process finishes its line and gives the lease back: the reader sees the record.
    await appendFile(log, 'age","message":{"role":"user","content":"b"}}}\n');
    await rm(run);
    expect((await reader.read('writing')).map((record) => record.seq)).toEqual([1, 2, 3, 4, 5]);

    // A line left unfinished with no live holder is a crash: set aside, and appends go on after it.
    await appendFile(log, '{"seq":6,"operationId":"op-c","ev');
    expect((await reader.read('writing')).map((record) => record.seq)).toEqual([1, 2, 3, 4, 5]);
    expect((await readdir(join(folder, 'writing'))).some((name) => name.includes('.corrupt-'))).toBe(true);
    expect(await reader.append('writing', sampleEvents('d'), { operationId: 'op-d' })).toEqual({
      firstSeq: 6,
      lastSeq: 9,
    });
  });
});
