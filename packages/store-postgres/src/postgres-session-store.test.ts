import {
  AgentError,
  type AgentMessage,
  MemorySessionStore,
  newSessionState,
  type SessionEvent,
  SessionManager,
  type SessionStore,
} from '@agent-core/core';
import { canonicalJson, sampleEvents, sampleSessionState, stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import { openPool } from './postgres-pool.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { quietPool } from '@agent-core/test-postgres';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';

const { server, track } = usePostgresServer();

function newStore(
  options: Partial<ConstructorParameters<typeof PostgresSessionStore>[0]> = {},
): PostgresSessionStore {
  const store = new PostgresSessionStore({
    connectionString: server.url,
    schema: server.newSchema(),
    maxConnections: 4,
    ...options,
  });
  track(store);
  return store;
}

async function rejection(action: () => unknown): Promise<AgentError> {
  try {
    await action();
  } catch (error) {
    if (AgentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('PostgresSessionStore options', () => {
  it('needs exactly one of connectionString and pool, and names what is wrong without quoting the password', async () => {
    const secret = 'hunter2-secret';
    expect(() => new PostgresSessionStore({} as never)).toThrow(/exactly one of connectionString/);
    expect(
      () => new PostgresSessionStore({ connectionString: server.url, pool: quietPool(server.url) }),
    ).toThrow(/exactly one/);
    const bad = await rejection(
      () => new PostgresSessionStore({ connectionString: `mysql://u:${secret}@h/db` }),
    );
    expect(bad.code).toBe('invalid_config');
    expect(bad.message).not.toContain(secret);
    expect(() => new PostgresSessionStore({ connectionString: server.url, schema: 'drop table;' })).toThrow(
      /schema must be/,
    );
    expect(() => new PostgresSessionStore({ connectionString: server.url, leaseDurationMs: -1 })).toThrow(
      /leaseDurationMs must be a whole number >= 0/,
    );
  });

  it('every bad option is a ConfigError naming the option and what it takes, never quoting the password', async () => {
    const secret = 'hunter2-secret';
    const url = `postgres://agent:${secret}@127.0.0.1:9/agents`;
    const cases: [unknown, RegExp][] = [
      [undefined, /PostgresSessionStore needs options: new PostgresSessionStore\(\{ connectionString: /],
      [url, /PostgresSessionStore needs options/],
      [
        { connectionString: url, poolSize: 5 },
        /PostgresSessionStore has no option 'poolSize'; its options are connectionString, pool, schema, leaseDurationMs, autoMigrate, maxConnections, statementTimeoutMs, idleInTransactionTimeoutMs, connectionTimeoutMs, logger/,
      ],
      [{ connectionString: 42 }, /connectionString must be a postgres:\/\/ or postgresql:\/\/ URL/],
      [
        { pool: { query() {}, connect() {}, on() {} } },
        /pool must be a pg Pool .*query, connect, on and removeListener/,
      ],
      [{ connectionString: url, autoMigrate: 'yes' }, /autoMigrate must be true .* or false .*got a string/],
      [
        { connectionString: url, logger: console.log },
        /logger must be a Logger \(debug, info, warn and error functions\)/,
      ],
      [
        { connectionString: url, maxConnections: '4' },
        /maxConnections must be a whole number >= 1, or left out for 10; got a string/,
      ],
      [
        { connectionString: url, statementTimeoutMs: 0 },
        /statementTimeoutMs must be a whole number >= 1, or left out for 15,000; got 0/,
      ],
      [{ connectionString: url, schema: 7 }, /schema must be a PostgreSQL schema name/],
    ];
    for (const [options, message] of cases) {
      const error = await rejection(() => new PostgresSessionStore(options as never));
      expect(error.name).toBe('ConfigError');
      expect(error.code).toBe('invalid_config');
      expect(error.message).toMatch(message);
      expect(error.message).not.toContain(secret);
    }
    const migration = await rejection(() => migrate({ connectionString: `mysql://agent:${secret}@host/db` }));
    expect(migration).toMatchObject({ name: 'ConfigError', code: 'invalid_config' });
    expect(migration.message).toMatch(
      /^migrate connectionString must be a postgres:\/\/ or postgresql:\/\/ URL/,
    );
    expect(migration.message).not.toContain(secret);
  });

  it('does nothing on construction; a server that cannot be reached is a retryable SessionStorageError without the password', async () => {
    const secret = 'hunter2-secret';
    // Port 9 on loopback: nothing listens there.
    const store = new PostgresSessionStore({
      connectionString: `postgres://agent:${secret}@127.0.0.1:9/agents`,
      connectionTimeoutMs: 2_000,
    });
    track(store);
    expect(store.where).toBe('postgres://agent@127.0.0.1:9/agents (schema public)');
    const error = await rejection(() => store.load('any'));
    expect(error.code).toBe('session_storage_unavailable');
    expect((error as { retryable?: boolean }).retryable).toBe(true);
    expect(error.message).toContain('postgres://agent@127.0.0.1:9/agents');
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(secret);
  });

  it('sets statement_timeout and idle_in_transaction_session_timeout on the connections it opens', async () => {
    const pool = await openPool({
      connectionString: server.url,
      maxConnections: 1,
      statementTimeoutMs: 1_234,
      idleInTransactionTimeoutMs: 4_321,
      connectionTimeoutMs: 5_000,
    });
    pool.on('error', () => {});
    const [statement] = (await pool.query({ text: 'SHOW statement_timeout' })).rows;
    const [idle] = (await pool.query({ text: 'SHOW idle_in_transaction_session_timeout' })).rows;
    await pool.end();
    expect(statement?.statement_timeout).toBe('1234ms');
    expect(idle?.idle_in_transaction_session_timeout).toBe('4321ms');
  });

  it('a statement held past statementTimeoutMs ends with a retryable error and changes nothing', async () => {
    const store = newStore({ statementTimeoutMs: 200 });
    await store.save(newSessionState({ id: 'held' }), { expectedVersion: 0 });
    const blocker = await server.admin.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`LOCK TABLE "${store.schema}".agent_core_sessions IN ACCESS EXCLUSIVE MODE`);
      const error = await rejection(() =>
        store.save(newSessionState({ id: 'other' }), { expectedVersion: 0 }),
      );
      expect(error.code).toBe('session_storage_io');
      expect((error as { retryable?: boolean }).retryable).toBe(true);
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
    await expect(store.load('other')).rejects.toMatchObject({ code: 'session_not_found' });
  });

  it('close() ends the pool it opened but never a pool it was given, and takes its error listener off it', async () => {
    const pool = quietPool(server.url);
    const before = pool.listenerCount('error');
    const store = new PostgresSessionStore({ pool, schema: server.newSchema() });
    await store.save(newSessionState({ id: 'given' }), { expectedVersion: 0 });
    expect(pool.listenerCount('error')).toBe(before + 1);
    await store.close();
    expect(pool.listenerCount('error')).toBe(before);
    expect((await pool.query('SELECT 1 AS one')).rows[0]).toEqual({ one: 1 });
    await pool.end();
    await expect(store.load('given')).rejects.toMatchObject({ code: 'invalid_config' });

    const own = newStore();
    await own.save(newSessionState({ id: 'own' }), { expectedVersion: 0 });
    await own.close();
    await expect(own.load('own')).rejects.toThrow(/was closed/);
  });
});

describe('PostgresSessionStore data', () => {
  it('keeps strings jsonb refuses (NUL, lone surrogates) exactly, in snapshots, metadata and log entries', async () => {
    const store = newStore();
    const odd = 'binary\u0000output and a cut emoji \ud83d and \udc00 alone, plus a literal \\u0000';
    const state = newSessionState({
      id: 'odd',
      metadata: { note: odd },
      messages: [{ role: 'user', content: odd }],
    });
    await store.save(state, { expectedVersion: 0 });
    const event: SessionEvent = {
      type: 'message',
      message: { role: 'toolResult', toolCallId: 'c1', toolName: 'shell', content: odd, isError: false },
    };
    await store.append('odd', [event], { operationId: 'odd-1' });
    const loaded = await store.load('odd');
    expect(loaded.messages[0]).toEqual({ role: 'user', content: odd });
    expect(loaded.metadata.note).toBe(odd);
    expect((await store.read('odd'))[0]?.event).toEqual(event);
    const [listed] = (await store.list()).sessions;
    expect(listed?.metadata.note).toBe(odd);
    // A text column holds neither: the title shows U+FFFD where they were.
    expect(listed?.title).toBe(
      odd.replace('\u0000', '\uFFFD').replace('\ud83d', '\uFFFD').replace('\udc00', '\uFFFD'),
    );
  });

  it('a row another program wrote that is not JSON is SessionCorruptError saying what to do, for the snapshot and a log record', async () => {
    const store = newStore();
    await store.save(newSessionState({ id: 'foreign' }), { expectedVersion: 0 });
    await store.append('foreign', sampleEvents('a'), { operationId: 'op' });
    const sessions = `"${store.schema}".agent_core_sessions`;
    const events = `"${store.schema}".agent_core_session_events`;
    await server.admin.query(`UPDATE ${events} SET event = to_jsonb('{"type": "mess'::text) WHERE seq = 2`);
    const record = await rejection(() => store.read('foreign'));
    expect(record).toMatchObject({ name: 'SessionCorruptError', code: 'session_corrupt' });
    expect(record.message).toContain(`the events log of session 'foreign' in ${store.where}`);
    expect(record.message).toContain('record 2 is not valid JSON');
    await server.admin.query(
      `UPDATE ${sessions} SET state = to_jsonb('{"id": "foreign", '::text) WHERE id = 'foreign'`,
    );
    const snapshot = await rejection(() => store.load('foreign'));
    expect(snapshot).toMatchObject({ name: 'SessionCorruptError', code: 'session_corrupt' });
    expect(snapshot.message).toContain('its state is not valid JSON');
    expect(snapshot.message).toContain(
      "Restore the session's row from a backup, or delete the session (store.delete(id)).",
    );
    // It can be deleted, as the advice says, and the id is free again.
    expect(await store.delete('foreign')).toBe(true);
    await store.save(newSessionState({ id: 'foreign' }), { expectedVersion: 0 });
  });

  it('lists ties of updatedAt by id in code unit order, page by page, on any server collation', async () => {
    const store = newStore();
    const ids = ['b', 'B', 'a', 'Z', '_x', 'A-1', 'a.2', '0', 'zz'];
    for (const id of ids) {
      await store.save(sampleSessionState(id, '2026-05-01T00:00:00.000Z'), { expectedVersion: 0 });
    }
    await store.save(sampleSessionState('newest', '2026-05-02T00:00:00.000Z'), { expectedVersion: 0 });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await store.list({ limit: 4, cursor });
      seen.push(...page.sessions.map((summary) => summary.id));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(['newest', ...[...ids].sort()]);
  });

  it('summaries equal core memory store ones after the same saves and appends', async () => {
    const postgres = newStore();
    const memory = new MemorySessionStore();
    const stores: SessionStore[] = [postgres, memory];
    const user = (text: string): AgentMessage => ({ role: 'user', content: text });
    const steps: ((store: SessionStore) => Promise<unknown>)[] = [
      (store) => {
        const state = newSessionState({ id: 's1', metadata: { owner: 'x' } });
        state.createdAt = state.updatedAt = '2026-04-01T00:00:00.000Z';
        return store.save(state, { expectedVersion: 0 });
      },
      (store) => store.append('s1', sampleEvents('a'), { operationId: 'a' }),
      (store) =>
        store.append(
          's1',
          [
            { type: 'run_started', runId: 'r2', at: '2026-06-01T00:00:00.000Z' },
            { type: 'message', message: user('  second\n prompt ') },
          ],
          { operationId: 'b' },
        ),
      // A save from a state that saw none of the log: the summary takes the log after its lastSeq in.
      async (store) => {
        const state = newSessionState({ id: 's1', metadata: { title: '' } });
        state.createdAt = state.updatedAt = '2026-05-01T00:00:00.000Z';
        return store.save({ ...state, version: 1 }, { expectedVersion: 1 });
      },
      (store) => store.append('s1', sampleEvents('c'), { operationId: 'c' }),
      async (store) => {
        const loaded = await store.load('s1');
        const records = await store.read('s1', { fromSeq: loaded.lastSeq + 1 });
        const state = {
          ...loaded,
          lastSeq: records.at(-1)?.seq ?? loaded.lastSeq,
          metadata: { title: 'Named' },
        };
        return store.save(state, { expectedVersion: loaded.version });
      },
    ];
    for (const step of steps) {
      for (const store of stores) await step(store);
      const [fromPostgres, fromMemory] = await Promise.all(
        stores.map(async (store) => (await store.list()).sessions),
      );
      // These runs hold no lease: a store with leases lists such a running session interrupted.
      const expected = (fromMemory ?? []).map((summary) =>
        summary.status === 'running' ? { ...summary, status: 'interrupted' } : summary,
      );
      expect(canonicalJson(fromPostgres)).toBe(canonicalJson(expected));
    }
  });

  it('a step writes what it added: appends to a session with a 1 MB history send a few KB', async () => {
    const store = newStore();
    const big = 'x'.repeat(100_000);
    const history: AgentMessage[] = [];
    for (let index = 0; index < 5; index++) {
      history.push({ role: 'user', content: big });
      history.push({ role: 'assistant', content: [{ type: 'text', text: big }], stopReason: 'end_turn' });
    }
    const provider = mock({
      turns: (request) =>
        request.messages.at(-1)?.role === 'toolResult'
          ? { text: 'done' }
          : { toolCalls: [{ name: 'note', input: { text: 'short' } }] },
    });
    const manager = new SessionManager({
      store,
      agentOptions: () => ({
        provider,
        model: 'mock',
        orchestrator: stepOrchestrator,
        tools: [
          {
            name: 'note',
            description: 'notes',
            parameters: { type: 'object', properties: { text: { type: 'string' } } },
            execute: () => 'noted',
          },
        ],
      }),
    });
    const session = await manager.create({ id: 'long', messages: history });
    const before = store.bytesWritten;
    const result = await session.prompt('one more step').result();
    expect(result.terminateReason).toBe('completed');
    const written = store.bytesWritten - before;
    expect(Buffer.byteLength(JSON.stringify(result.messages))).toBeGreaterThan(1_000_000);
    expect(written).toBeLessThan(5_000);
  });
});

describe('PostgresSessionStore under load and faults', () => {
  it('appends from many sessions at once go in shared statements, each with its own seqs; a bad one fails alone', async () => {
    const store = newStore({ maxConnections: 2 });
    const ids = Array.from({ length: 40 }, (_, index) => `load-${index}`);
    for (const id of ids) await store.save(newSessionState({ id }), { expectedVersion: 0 });
    const rounds = 5;
    const outcomes = await Promise.allSettled(
      [...ids, 'missing'].map(async (id) => {
        for (let round = 0; round < rounds; round++) {
          await store.append(id, sampleEvents(`${id}-${round}`), { operationId: `${id}-${round}` });
        }
      }),
    );
    expect(outcomes.at(-1)).toMatchObject({ status: 'rejected', reason: { code: 'session_not_found' } });
    expect(outcomes.slice(0, -1).every((outcome) => outcome.status === 'fulfilled')).toBe(true);
    for (const id of ids) {
      const records = await store.read(id);
      expect(records.map((record) => record.seq)).toEqual(
        Array.from({ length: 4 * rounds }, (_, seq) => seq + 1),
      );
      expect(records.map((record) => record.operationId)).toEqual(
        Array.from({ length: rounds }, (_, round) => Array(4).fill(`${id}-${round}`)).flat(),
      );
    }
  });

  it('connections the server terminates while idle crash nothing, and the next call works on a new one', async () => {
    const store = newStore();
    await store.save(newSessionState({ id: 'survivor' }), { expectedVersion: 0 });
    const unhandled: unknown[] = [];
    const record = (error: unknown) => unhandled.push(error);
    process.on('uncaughtException', record);
    try {
      // This store's connections only (their last statement names its schema): a shared server runs other tests too.
      const { rows } = await server.admin.query(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
         WHERE application_name = 'agent-core' AND pid <> pg_backend_pid() AND query LIKE $1`,
        [`%"${store.schema}"%`],
      );
      expect(rows.length).toBeGreaterThan(0);
      await store.append('survivor', sampleEvents('after'), { operationId: 'after' });
      expect((await store.load('survivor')).version).toBe(1);
      expect(await store.read('survivor')).toHaveLength(4);
    } finally {
      process.off('uncaughtException', record);
    }
    expect(unhandled).toEqual([]);
  });
});
