import { AgentError, MemorySessionStore, newSessionState } from '@agent-core/core';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';
import { describe, expect, it } from 'vitest';
import { migrateWorkers } from './migrate-workers.js';
import { RunQueue } from './run-queue.js';
import { type Executions, noteWorker, storeWith } from './test-support/scripted-agent.js';

const { server } = usePostgresServer();

async function rows(schema: string, table: string): Promise<number> {
  const { rows } = await server.admin.query(`SELECT count(*)::int AS n FROM "${schema}".${table}`);
  return (rows[0] as { n: number }).n;
}

describe('RunQueue', () => {
  it('enqueues a prompt that a worker runs, and its outcome says how it ended', async () => {
    const schema = server.newSchema();
    const store = await storeWith('s1');
    const executions: Executions = { notes: [] };
    const worker = noteWorker(server.url, schema, store, executions);
    await worker.start();
    const queue = new RunQueue({ connectionString: server.url, schema, store });
    try {
      expect(await queue.latest('s1')).toBeUndefined();
      const queued = await queue.enqueue('s1', 'hello', { operationId: 'op-1' });
      // The worker may have taken it already: only what enqueuing set is certain.
      const { operationId, sessionId, type, enqueuedAt } = queued;
      expect(await queue.latest('s1')).toMatchObject({ operationId, sessionId, type, enqueuedAt });
      expect(queued).toMatchObject({
        operationId: 'op-1',
        sessionId: 's1',
        type: 'prompt',
        state: 'queued',
        attempts: 0,
      });
      const outcome = await queue.wait('op-1');
      expect(outcome).toMatchObject({
        state: 'finished',
        terminateReason: 'completed',
        text: 'done: noted hello',
        attempts: 1,
      });
      expect(executions.notes).toEqual(['hello']);
      expect(await queue.latest('s1')).toEqual(outcome);
      const session = await store.load('s1');
      expect(session.status).toBe('idle');
    } finally {
      await queue.close();
      await worker.stop();
    }
  });

  it('is idempotent by operation id: the same enqueue again runs nothing more, other input is refused', async () => {
    const schema = server.newSchema();
    const store = await storeWith('s1', 's2');
    const queue = new RunQueue({ connectionString: server.url, schema, store });
    try {
      const first = await queue.enqueue('s1', 'hello', { operationId: 'op-1' });
      const again = await queue.enqueue('s1', { type: 'prompt', prompt: 'hello' }, { operationId: 'op-1' });
      expect(again).toEqual(first);
      const other = await queue
        .enqueue('s1', 'goodbye', { operationId: 'op-1' })
        .catch((error: unknown) => error);
      expect(other).toMatchObject({ code: 'duplicate_operation', operationId: 'op-1', sessionId: 's1' });
      const elsewhere = await queue
        .enqueue('s2', 'hello', { operationId: 'op-1' })
        .catch((error: unknown) => error);
      expect(elsewhere).toMatchObject({ code: 'duplicate_operation' });
      expect((elsewhere as Error).message).toContain("another session ('s1')");
      expect(await rows(schema, 'agent_core_operations')).toBe(1);
      expect(await rows(schema, '_private_jobs')).toBe(1);
    } finally {
      await queue.close();
    }
  });

  it('refuses an unknown session, bad input and a bad operation id, writing nothing', async () => {
    const schema = server.newSchema();
    const store = await storeWith('s1');
    const queue = new RunQueue({ connectionString: server.url, schema, store });
    try {
      expect(await queue.outcome('never')).toBeUndefined();
      await expect(queue.enqueue('nobody', 'hello', { operationId: 'a' })).rejects.toMatchObject({
        code: 'session_not_found',
      });
      await expect(queue.enqueue('s1', '  ', { operationId: 'b' })).rejects.toMatchObject({
        code: 'invalid_run_input',
      });
      await expect(
        queue.enqueue('s1', { type: 'launch' } as never, { operationId: 'c' }),
      ).rejects.toMatchObject({ code: 'invalid_run_input' });
      await expect(
        queue.enqueue('s1', { type: 'resume', decisions: [{ toolCallId: 'x' }] } as never, {
          operationId: 'd',
        }),
      ).rejects.toMatchObject({ code: 'invalid_run_input' });
      await expect(
        queue.enqueue(
          's1',
          { type: 'prompt', prompt: { role: 'user', content: 'hi', at: new Date() } } as never,
          {
            operationId: 'e',
          },
        ),
      ).rejects.toMatchObject({ code: 'invalid_run_input' });
      await expect(queue.enqueue('s1', 'hello', { operationId: 'has space' })).rejects.toMatchObject({
        code: 'invalid_run_input',
      });
      await expect(queue.enqueue('../x', 'hello', { operationId: 'f' })).rejects.toMatchObject({
        code: 'invalid_session_id',
      });
      expect(await rows(schema, 'agent_core_operations')).toBe(0);
      expect(await rows(schema, '_private_jobs')).toBe(0);
      await expect(queue.wait('never')).rejects.toMatchObject({ code: 'operation_not_found' });
    } finally {
      await queue.close();
    }
  });

  it('with autoMigrate false, a server without the tables is a ConfigError naming migrateWorkers; after it, all is well', async () => {
    const schema = server.newSchema();
    const store = new MemorySessionStore();
    await store.save(newSessionState({ id: 's1' }), { expectedVersion: 0 });
    const queue = new RunQueue({ connectionString: server.url, schema, store, autoMigrate: false });
    const worker = noteWorker(server.url, schema, store, { notes: [] }, {}, { autoMigrate: false });
    try {
      const refused = await queue
        .enqueue('s1', 'hello', { operationId: 'a' })
        .catch((error: unknown) => error);
      expect(AgentError.isInstance(refused) && refused.code).toBe('invalid_config');
      expect((refused as Error).message).toContain('migrateWorkers');
      expect((refused as Error).message).not.toContain(new URL(server.url).password);
      await expect(worker.start()).rejects.toMatchObject({ code: 'invalid_config' });
      const { rows: tables } = await server.admin.query(
        `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1`,
        [schema],
      );
      expect((tables[0] as { n: number }).n).toBe(0);
      expect(await migrateWorkers({ connectionString: server.url, schema })).toEqual({
        schema,
        from: 0,
        to: 1,
      });
      expect(await migrateWorkers({ connectionString: server.url, schema })).toEqual({
        schema,
        from: 1,
        to: 1,
      });
      const fresh = new RunQueue({ connectionString: server.url, schema, store, autoMigrate: false });
      await expect(fresh.enqueue('s1', 'hello', { operationId: 'a' })).resolves.toMatchObject({
        state: 'queued',
      });
      await fresh.close();
    } finally {
      await queue.close();
    }
  });
});
