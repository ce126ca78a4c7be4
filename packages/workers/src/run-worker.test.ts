import type { AgentEvent } from '@agent-core/core';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';
import { describe, expect, it } from 'vitest';
import { requeueOrphans } from './requeue-orphans.js';
import { RunQueue } from './run-queue.js';
import { RunWorker } from './run-worker.js';
import type { RunWorkerOptions } from './run-worker-options.js';
import { type Executions, noteAgent, storeWith } from './test-support/scripted-agent.js';

const { server } = usePostgresServer();

/** Workers and a queue on a fresh schema, stopped after `body`. */
async function withWorkers(
  count: number,
  options: Omit<RunWorkerOptions, 'connectionString' | 'schema'>,
  body: (queue: RunQueue, workers: RunWorker[], schema: string) => Promise<void>,
): Promise<void> {
  const schema = server.newSchema();
  const workers = Array.from(
    { length: count },
    () => new RunWorker({ connectionString: server.url, schema, ...options }),
  );
  for (const worker of workers) await worker.start();
  const queue = new RunQueue({ connectionString: server.url, schema, store: options.store });
  try {
    await body(queue, workers, schema);
  } finally {
    await queue.close();
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

/** One worker on an existing schema, stopped after `body`. */
async function withWorkersOn(
  schema: string,
  options: Omit<RunWorkerOptions, 'connectionString' | 'schema'>,
  body: () => Promise<void>,
): Promise<void> {
  const worker = new RunWorker({ connectionString: server.url, schema, ...options });
  await worker.start();
  try {
    await body();
  } finally {
    await worker.stop();
  }
}

/** Counts runs going on at once, from the events listeners see. */
function concurrencyProbe(workers: RunWorker[]) {
  let now = 0;
  const probe = { most: 0, started: 0 };
  for (const worker of workers)
    worker.subscribe((event: AgentEvent) => {
      if (event.type === 'agent_start') {
        now++;
        probe.started++;
        probe.most = Math.max(probe.most, now);
      } else if (event.type === 'agent_end') now--;
    });
  return probe;
}

describe('RunWorker', () => {
  it('gives listeners every event of a run in order, with its session and operation', async () => {
    const store = await storeWith('s1');
    const executions: Executions = { notes: [] };
    await withWorkers(1, { store, agentOptions: () => noteAgent(executions) }, async (queue, [worker]) => {
      const seen: { type: string; sessionId: string; operationId: string; seq: number }[] = [];
      worker?.subscribe((event, run) => seen.push({ type: event.type, ...run, seq: event.seq }));
      await queue.enqueue('s1', 'hello', { operationId: 'op-1' });
      expect(await queue.wait('op-1')).toMatchObject({ state: 'finished', terminateReason: 'completed' });
      expect(seen.map((event) => event.type)).toEqual(
        expect.arrayContaining(['agent_start', 'tool_call_start', 'tool_call_end', 'agent_end']),
      );
      expect(seen[0]?.type).toBe('agent_start');
      expect(seen.at(-1)?.type).toBe('agent_end');
      expect(seen.every((event) => event.sessionId === 's1' && event.operationId === 'op-1')).toBe(true);
      expect(seen.map((event) => event.seq)).toEqual(
        [...seen.map((event) => event.seq)].sort((a, b) => a - b),
      );
      // The run went to the session's log as any run does.
      const records = await store.read('s1');
      expect(records.map((record) => record.event.type)).toContain('run_ended');
    });
  });

  it('runs a session’s operations one at a time, in the order they were enqueued', async () => {
    const store = await storeWith('s1');
    const executions: Executions = { notes: [] };
    await withWorkers(
      2,
      { store, agentOptions: () => noteAgent(executions, { latencyMs: 5 }) },
      async (queue, workers) => {
        const probe = concurrencyProbe(workers);
        for (const word of ['one', 'two', 'three', 'four'])
          await queue.enqueue('s1', word, { operationId: word });
        for (const word of ['one', 'two', 'three', 'four'])
          expect(await queue.wait(word)).toMatchObject({ state: 'finished', terminateReason: 'completed' });
        expect(executions.notes).toEqual(['one', 'two', 'three', 'four']);
        expect(probe.most).toBe(1);
        const records = await store.read('s1', { fromSeq: 1 });
        expect(records.filter((record) => record.event.type === 'run_started')).toHaveLength(4);
      },
    );
  });

  it('runs at most `concurrency` runs at once in a worker, and every one of them', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const store = await storeWith(...ids);
    const executions: Executions = { notes: [] };
    await withWorkers(
      1,
      { store, concurrency: 2, agentOptions: () => noteAgent(executions, { latencyMs: 30 }) },
      async (queue, workers) => {
        const probe = concurrencyProbe(workers);
        for (const id of ids) await queue.enqueue(id, `note ${id}`, { operationId: `op-${id}` });
        for (const id of ids) expect(await queue.wait(`op-${id}`)).toMatchObject({ state: 'finished' });
        expect(probe.most).toBeLessThanOrEqual(2);
        expect(probe.started).toBe(6);
        expect([...executions.notes].sort()).toEqual(ids.map((id) => `note ${id}`));
      },
    );
  });

  it('holds runs of one provider key to its limit across workers; runs of other keys go on as usual', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
    const store = await storeWith(...ids);
    const executions: Executions = { notes: [] };
    const byKey = new Map<string, number>();
    const most = new Map<string, number>();
    await withWorkers(
      2,
      {
        store,
        concurrency: 3,
        agentOptions: ({ id }) => ({
          ...noteAgent(executions, { latencyMs: 40 }),
          model: id < 'e' ? 'small' : 'large',
        }),
        providerLimit: (options) => (options.model === 'small' ? { key: 'team-small', limit: 1 } : undefined),
      },
      async (queue, workers) => {
        for (const worker of workers)
          worker.subscribe((event, run) => {
            const key = run.sessionId < 'e' ? 'small' : 'large';
            if (event.type === 'agent_start') {
              byKey.set(key, (byKey.get(key) ?? 0) + 1);
              most.set(key, Math.max(most.get(key) ?? 0, byKey.get(key) ?? 0));
            } else if (event.type === 'agent_end') byKey.set(key, (byKey.get(key) ?? 0) - 1);
          });
        for (const id of ids) await queue.enqueue(id, `note ${id}`, { operationId: `op-${id}` });
        for (const id of ids) expect(await queue.wait(`op-${id}`)).toMatchObject({ state: 'finished' });
        expect(most.get('small')).toBe(1);
        expect(executions.notes).toHaveLength(8);
      },
    );
  });

  it('fails a run visibly when its provider stays down: the loop retried, the outcome and the session say why', async () => {
    const store = await storeWith('s1');
    await withWorkers(
      1,
      {
        store,
        agentOptions: () =>
          noteAgent({ notes: [] }, { failWith: { kind: 'overloaded', message: 'overloaded now' } }),
      },
      async (queue) => {
        await queue.enqueue('s1', 'hello', { operationId: 'op-1' });
        const outcome = await queue.wait('op-1');
        expect(outcome).toMatchObject({ state: 'failed', terminateReason: 'error', attempts: 1 });
        expect(outcome.error?.message).toContain('overloaded now');
        const session = await store.load('s1');
        const records = await store.read('s1', { fromSeq: session.lastSeq + 1 });
        const status = records.some(
          (record) => record.event.type === 'run_ended' && record.event.reason === 'error',
        );
        expect(status).toBe(true);
        expect((await store.list()).sessions[0]).toMatchObject({ id: 's1', status: 'failed' });
      },
    );
  });

  it('fails a malformed job for good without touching a session, and goes on with the others', async () => {
    const store = await storeWith('s1');
    await withWorkers(
      1,
      { store, agentOptions: () => noteAgent({ notes: [] }) },
      async (queue, _workers, schema) => {
        await server.admin.query(`SELECT "${schema}".add_job('agent_core_run', '{"hello": 1}'::json)`);
        await server.admin.query(
          `SELECT "${schema}".add_job('agent_core_run', '{"operationId": "nothing"}'::json)`,
        );
        await queue.enqueue('s1', 'hello', { operationId: 'op-1' });
        expect(await queue.wait('op-1')).toMatchObject({ state: 'finished' });
        const failed = async () =>
          (
            await server.admin.query(
              `SELECT attempts, max_attempts, last_error FROM "${schema}"._private_jobs WHERE last_error IS NOT NULL ORDER BY id`,
            )
          ).rows as { attempts: number; max_attempts: number; last_error: string }[];
        const { until } = await import('@agent-core/test-support/until');
        const jobs = await until(async () => {
          const rows = await failed();
          return rows.length === 2 ? rows : undefined;
        }, 'both malformed jobs to fail');
        for (const job of jobs) expect(job.attempts).toBe(job.max_attempts);
        expect(jobs[0]?.last_error).toContain('has no operationId');
        expect(jobs[1]?.last_error).toContain("operation 'nothing'");
        expect((await store.read('s1')).filter((record) => record.event.type === 'run_started')).toHaveLength(
          1,
        );
      },
    );
  });

  it('gives an open operation whose job was lost a job again, and it runs once', async () => {
    const store = await storeWith('s1');
    const executions: Executions = { notes: [] };
    const schema = server.newSchema();
    const queue = new RunQueue({ connectionString: server.url, schema, store });
    try {
      await queue.enqueue('s1', 'hello', { operationId: 'op-1' });
      // The job is gone, as when a worker taken for dead completed a job another worker held, and that one died too.
      await server.admin.query(`DELETE FROM "${schema}"._private_jobs`);
      const { WorkersDatabase } = await import('./workers-database.js');
      const database = new WorkersDatabase({ connectionString: server.url, schema }, 'test');
      try {
        expect(await requeueOrphans(database, 60_000)).toBe(0);
        await server.admin.query(
          `UPDATE "${schema}".agent_core_operations SET enqueued_at = now() - interval '1 hour'`,
        );
        expect(await requeueOrphans(database, 60_000)).toBe(1);
        expect(await requeueOrphans(database, 60_000)).toBe(0);
      } finally {
        await database.close();
      }
      await withWorkersOn(schema, { store, agentOptions: () => noteAgent(executions) }, async () => {
        expect(await queue.wait('op-1')).toMatchObject({ state: 'finished', attempts: 1 });
      });
      expect(executions.notes).toEqual(['hello']);
    } finally {
      await queue.close();
    }
  });

  it('gives up an operation whose workers keep dying, not one that was handed back on purpose', async () => {
    const store = await storeWith('died', 'handed');
    const executions: Executions = { notes: [] };
    const schema = server.newSchema();
    const queue = new RunQueue({ connectionString: server.url, schema, store });
    try {
      await queue.enqueue('died', 'first', { operationId: 'died' });
      await queue.enqueue('handed', 'second', { operationId: 'handed' });
      // Ten attempts each: one operation's workers all died, the other's handed it back (stops, busy sessions).
      await server.admin.query(
        `UPDATE "${schema}".agent_core_operations SET attempts = 10, handed_on = CASE WHEN operation_id = 'handed' THEN 10 ELSE 0 END`,
      );
      await withWorkersOn(
        schema,
        { store, maxAttempts: 10, agentOptions: () => noteAgent(executions) },
        async () => {
          expect(await queue.wait('died')).toMatchObject({
            state: 'failed',
            error: { code: 'too_many_attempts' },
          });
          expect(await queue.wait('handed')).toMatchObject({
            state: 'finished',
            terminateReason: 'completed',
          });
        },
      );
      expect(executions.notes).toEqual(['second']);
    } finally {
      await queue.close();
    }
  });
});
