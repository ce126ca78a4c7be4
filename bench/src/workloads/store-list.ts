import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySessionStore, newSessionState, type SessionStore } from '@agent-core/core';
import { FileSessionStore } from '@agent-core/store-file';
import { migrate, PostgresSessionStore } from '@agent-core/store-postgres';
import pg from 'pg';
import { quantile } from '../measure.js';

/** `list` over a store of `sessions` sessions: a first page, a page from the middle, and a walk through pages. */
export interface ListCell {
  store: string;
  sessions: number;
  /** How the sessions were made. */
  made: string;
  firstPageP50Ms: number;
  firstPageP99Ms: number;
  middlePageP50Ms: number;
  /** Sessions listed per second walking pages of 500 from the newest. */
  walkSessionsPerSecond: number;
}

const samples = 200;

async function timed(action: () => Promise<unknown>, count = samples): Promise<number[]> {
  const times: number[] = [];
  for (let index = 0; index < count; index++) {
    const start = performance.now();
    await action();
    times.push(performance.now() - start);
  }
  return times;
}

async function measure(store: SessionStore, name: string, sessions: number, made: string): Promise<ListCell> {
  // The cursor of the page in the middle: walk there once.
  let cursor: string | undefined;
  let seen = 0;
  while (seen < sessions / 2) {
    const page = await store.list({ limit: 500, cursor });
    seen += page.sessions.length;
    cursor = page.nextCursor;
    if (cursor === undefined) break;
  }
  const middle = cursor;
  await timed(() => store.list({ limit: 50 }), 20);
  const first = await timed(() => store.list({ limit: 50 }));
  const deep = await timed(() => store.list({ limit: 50, cursor: middle }));
  const walkStart = performance.now();
  let listed = 0;
  let next: string | undefined;
  do {
    const page = await store.list({ limit: 500, cursor: next });
    listed += page.sessions.length;
    next = page.nextCursor;
  } while (next !== undefined && listed < 20_000);
  return {
    store: name,
    sessions,
    made,
    firstPageP50Ms: quantile(first, 0.5),
    firstPageP99Ms: quantile(first, 0.99),
    middlePageP50Ms: quantile(deep, 0.5),
    walkSessionsPerSecond: listed / ((performance.now() - walkStart) / 1000),
  };
}

function state(index: number) {
  const session = newSessionState({
    id: `s${index}`,
    messages: [{ role: 'user', content: `task ${index}` }],
  });
  // Twenty sessions per second of activity, so pages cut through ties of updatedAt too.
  session.createdAt = session.updatedAt = new Date(
    Date.UTC(2026, 0, 1) + Math.floor(index / 20) * 1000,
  ).toISOString();
  return session;
}

/** `list` on the memory and file stores at 1,000 sessions, and on PostgreSQL at 1,000 and 100,000. */
export async function storeList(databaseUrl: string): Promise<ListCell[]> {
  const cells: ListCell[] = [];
  const memory = new MemorySessionStore();
  for (let index = 0; index < 1000; index++) await memory.save(state(index), { expectedVersion: 0 });
  cells.push(await measure(memory, 'MemorySessionStore', 1000, 'saves'));
  const root = await mkdtemp(join(tmpdir(), 'agent-core-bench-list-'));
  try {
    const file = new FileSessionStore({ root });
    for (let index = 0; index < 1000; index++) await file.save(state(index), { expectedVersion: 0 });
    cells.push(await measure(file, 'FileSessionStore', 1000, 'saves'));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  for (const sessions of [1000, 100_000]) {
    const schema = `bench_list_${sessions}_${process.pid}`;
    const store = new PostgresSessionStore({ connectionString: databaseUrl, schema });
    try {
      let made = 'saves';
      if (sessions <= 1000) {
        for (let index = 0; index < sessions; index++) await store.save(state(index), { expectedVersion: 0 });
      } else {
        await migrate({ connectionString: databaseUrl, schema });
        await bulkInsert(databaseUrl, schema, sessions);
        made = 'one INSERT … SELECT of the rows a save writes, then ANALYZE';
      }
      cells.push(await measure(store, 'PostgresSessionStore', sessions, made));
    } finally {
      await store.close();
      await dropSchema(databaseUrl, schema);
    }
  }
  return cells;
}

/** 100,000 saves one by one would take minutes of commits: the rows a save writes, made in one statement. */
async function bulkInsert(url: string, schema: string, sessions: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO "${schema}".agent_core_sessions
        (id, version, state, status, created_at, updated_at, metadata, message_count, title, pending_approval_count)
       SELECT 's' || n, 1,
         jsonb_build_object('id', 's' || n, 'schemaVersion', 1, 'version', 1, 'status', 'idle', 'createdAt', at, 'updatedAt', at,
           'messages', jsonb_build_array(jsonb_build_object('role', 'user', 'content', 'task ' || n)),
           'metadata', '{}'::jsonb, 'usage', jsonb_build_object('input', 0, 'output', 0, 'cacheRead', 0, 'cacheWrite', 0),
           'pendingApprovals', '[]'::jsonb, 'alwaysAllowedTools', '[]'::jsonb, 'lastSeq', 0),
         'idle', at, at, '{}'::jsonb, 1, 'task ' || n, 0
       FROM (SELECT n, to_char(timestamp '2026-01-01' + (n / 20) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at
             FROM generate_series(0, $1::int - 1) AS n) AS rows`,
      [sessions],
    );
    await client.query(`ANALYZE "${schema}".agent_core_sessions`);
  } finally {
    await client.end();
  }
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => client.end());
}
