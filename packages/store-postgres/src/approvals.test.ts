import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyProblems } from '@agent-core/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { startWorker } from './test-support/child-process.js';
import { startTestServer, type TestServer } from '@agent-core/test-postgres';
import { until } from '@agent-core/test-support/until';

let server: TestServer;
let schema: string;
let folder: string;

beforeAll(async () => {
  server = await startTestServer();
  schema = server.newSchema();
  await migrate({ connectionString: server.url, schema });
  folder = await mkdtemp(join(tmpdir(), 'store-postgres-approvals-'));
});
afterAll(async () => {
  await server.stop();
  await rm(folder, { recursive: true, force: true });
});

async function pause(id: string): Promise<void> {
  const paused = JSON.parse(
    await startWorker('approval-worker.mjs', ['pause', server.url, schema, folder, id]).next(),
  );
  expect(paused).toEqual({ reason: 'await_user', pending: 1 });
}

function decide(id: string, name: string) {
  return startWorker('approval-worker.mjs', ['decide', server.url, schema, folder, id, name]);
}

async function ran(id: string): Promise<string[]> {
  const text = existsSync(join(folder, 'ran.txt')) ? await readFile(join(folder, 'ran.txt'), 'utf8') : '';
  return text.split('\n').filter((line) => line.startsWith(`${id} `));
}

describe('approvals through PostgreSQL', () => {
  it('a run paused in one process is decided in another, its tool run exactly once', async () => {
    await pause('one');
    const store = new PostgresSessionStore({ connectionString: server.url, schema });
    try {
      expect((await store.list()).sessions.find((summary) => summary.id === 'one')).toMatchObject({
        status: 'await_user',
        pendingApprovalCount: 1,
      });
      const decider = decide('one', 'b');
      await until(() => existsSync(join(folder, 'ready-one-b')), 'the deciding process to load the session');
      await writeFile(join(folder, 'go-one'), '');
      expect(JSON.parse(await decider.next())).toEqual({ name: 'b', reason: 'completed', pending: 1 });
      expect(await ran('one')).toEqual(['one one.txt by b']);
      const loaded = await store.load('one');
      const records = await store.read('one', { fromSeq: loaded.lastSeq + 1 });
      const messages = [...loaded.messages];
      for (const record of records) if (record.event.type === 'message') messages.push(record.event.message);
      expect(historyProblems(messages)).toEqual([]);
      expect(messages.filter((message) => message.role === 'toolResult')).toHaveLength(1);
      expect((await store.list()).sessions.find((summary) => summary.id === 'one')).toMatchObject({
        status: 'idle',
        pendingApprovalCount: 0,
      });
    } finally {
      await store.close();
    }
  });

  it('two processes deciding the same call at once: one runs it, the other is told it was claimed', async () => {
    await pause('race');
    const deciders = ['c', 'd'].map((name) => decide('race', name));
    await until(
      () => existsSync(join(folder, 'ready-race-c')) && existsSync(join(folder, 'ready-race-d')),
      'both deciding processes to load the session',
    );
    await writeFile(join(folder, 'go-race'), '');
    const outcomes = (await Promise.all(deciders.map((decider) => decider.next()))).map(
      (line) => JSON.parse(line) as { name: string; reason: string; code?: string },
    );
    const winners = outcomes.filter((outcome) => outcome.reason === 'completed');
    const losers = outcomes.filter((outcome) => outcome.reason !== 'completed');
    expect(winners).toHaveLength(1);
    expect(losers).toEqual([expect.objectContaining({ reason: 'error', code: 'approval_claimed' })]);
    expect(await ran('race')).toEqual([`race race.txt by ${winners[0]?.name}`]);
  });
});
