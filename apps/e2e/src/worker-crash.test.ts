import { report, soak } from '@agent-core/test-support';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { historyProblems, newSessionState, restoreSession } from '@agent-core/core';
import { migrate, PostgresSessionStore } from '@agent-core/store-postgres';
import { startLineProcess } from '@agent-core/test-support/line-process';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';
import { migrateWorkers, RunQueue } from '@agent-core/workers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Worker processes of @agent-core/workers on one PostgreSQL server, killed with SIGKILL at random
// moments while they run queued runs on the mock model: no run is lost, no tool call runs twice
// (counted in a file outside the processes), every session's history is valid, and every run
// completes once a worker survives. `AGENT_CORE_SOAK=1` runs the full size.

const child = join(import.meta.dirname, 'test-support', 'worker-child.mjs');
const processes = soak ? 4 : 2;
const runs = soak ? 1_000 : 60;
const kills = soak ? 20 : 2;
const leaseMs = 1_000;

const { server } = usePostgresServer();
let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'e2e-workers-'));
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

interface WorkerProcess {
  process: ChildProcess;
  /** Resolves once the worker printed `ready`. */
  ready: Promise<void>;
  /** Every line it printed, once it exited with code 0. */
  lines(): Promise<string[]>;
  exited: Promise<number | null>;
}

function startWorker(schema: string, ranFile: string, concurrency: number, toolDelayMs = 6): WorkerProcess {
  const worker = startLineProcess(child, [
    server.url,
    schema,
    ranFile,
    String(concurrency),
    String(leaseMs),
    String(toolDelayMs),
  ]);
  const ready = (async () => {
    while ((await worker.next()) !== 'ready');
  })();
  // A worker killed before it is ready is awaited by no one: its rejection is not an error.
  ready.catch(() => {});
  const exited = new Promise<number | null>((resolve) => worker.child.once('exit', (code) => resolve(code)));
  return { process: worker.child, ready, lines: worker.all, exited };
}

async function settledCount(schema: string): Promise<number> {
  const { rows } = await server.admin.query(
    `SELECT count(*)::int AS n FROM "${schema}".agent_core_operations WHERE state IN ('finished', 'failed')`,
  );
  return (rows[0] as { n: number }).n;
}

async function prepare(count: number, prefix: string) {
  const schema = server.newSchema();
  await migrate({ connectionString: server.url, schema });
  await migrateWorkers({ connectionString: server.url, schema });
  const store = new PostgresSessionStore({ connectionString: server.url, schema });
  const queue = new RunQueue({ connectionString: server.url, schema, store });
  const ids = Array.from({ length: count }, (_, index) => `${prefix}${index}`);
  for (const id of ids) await store.save(newSessionState({ id }), { expectedVersion: 0 });
  for (const id of ids) await queue.enqueue(id, `work for ${id}`, { operationId: `op-${id}` });
  return { schema, store, queue, ids, ranFile: join(folder, `${prefix}ran.txt`) };
}

describe('worker processes killed at random moments', () => {
  it(
    `${processes} processes, ${runs} queued runs, ${kills} kills: nothing lost, no tool run twice, every history valid`,
    async () => {
      const { schema, store, queue, ids, ranFile } = await prepare(runs, 'k');
      const workers = Array.from({ length: processes }, () => startWorker(schema, ranFile, 4));
      let killed = 0;
      try {
        await Promise.all(workers.map((worker) => worker.ready));
        const deadline = Date.now() + (soak ? 30 * 60_000 : 120_000);
        while ((await settledCount(schema)) < runs) {
          if (Date.now() > deadline)
            throw new Error(`only ${await settledCount(schema)} of ${runs} runs settled`);
          const due = killed < kills && (await settledCount(schema)) >= ((killed + 1) * runs) / (kills + 2);
          if (due) {
            // A random worker dies mid-run, as a lost machine would; another process takes its place.
            const index = Math.floor(Math.random() * workers.length);
            await sleep(Math.random() * 30);
            workers[index]?.process.kill('SIGKILL');
            await workers[index]?.exited;
            workers[index] = startWorker(schema, ranFile, 4);
            killed++;
          }
          await sleep(50);
        }
        expect(killed).toBe(kills);
        const { rows } = await server.admin.query(
          `SELECT state, outcome, attempts FROM "${schema}".agent_core_operations`,
        );
        expect(rows).toHaveLength(runs);
        expect(rows.filter((row: { state: string }) => row.state !== 'finished')).toEqual([]);
        expect(
          rows.every(
            (row: { outcome: { terminateReason: string } }) => row.outcome.terminateReason === 'completed',
          ),
        ).toBe(true);
        const ran = (await readFile(ranFile, 'utf8')).split('\n').filter((line) => line !== '');
        expect(ran.length - new Set(ran).size).toBe(0);
        let unknown = 0;
        for (const id of ids) {
          const { state } = await restoreSession(store, id);
          expect(state.status).toBe('idle');
          expect(historyProblems(state.messages)).toEqual([]);
          expect(
            state.messages.filter((message) => (message as { role: string }).role === 'user'),
          ).toHaveLength(1);
          for (const message of state.messages) {
            const result = message as { role: string; content?: unknown };
            if (result.role === 'toolResult' && String(result.content).includes('outcome is unknown'))
              unknown++;
          }
        }
        const retried = rows.filter((row: { attempts: number }) => row.attempts > 1).length;
        report(
          'Worker crash soak',
          `${processes} processes, ${runs} runs, ${kills} SIGKILLs: ${ran.length} tool executions, none twice; ${retried} runs taken over by another worker; ${unknown} calls answered "outcome unknown"`,
        );
      } finally {
        for (const worker of workers) worker.process.kill('SIGKILL');
        await Promise.all(workers.map((worker) => worker.exited));
        await queue.close();
        await store.close();
      }
    },
    soak ? 40 * 60_000 : 180_000,
  );

  it('SIGTERM drains: the runs in flight finish, the process exits 0, and the rest wait for another worker', async () => {
    const { schema, store, queue, ids, ranFile } = await prepare(8, 't');
    const first = startWorker(schema, ranFile, 2, 150);
    try {
      await first.ready;
      while ((await readFile(ranFile, 'utf8').catch(() => '')).length === 0) await sleep(20);
      first.process.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      expect((await first.lines()).at(-1)).toBe('stopped 0');
      const { rows } = await server.admin.query(
        `SELECT state FROM "${schema}".agent_core_operations WHERE state NOT IN ('finished', 'queued')`,
      );
      expect(rows).toEqual([]);
      const second = startWorker(schema, ranFile, 4, 0);
      try {
        for (const id of ids)
          expect(await queue.wait(`op-${id}`)).toMatchObject({ state: 'finished', attempts: 1 });
      } finally {
        second.process.kill('SIGTERM');
        await second.exited;
      }
      const ran = (await readFile(ranFile, 'utf8')).split('\n').filter((line) => line !== '');
      expect(ran).toHaveLength(8 * 3);
    } finally {
      first.process.kill('SIGKILL');
      await queue.close();
      await store.close();
    }
  }, 60_000);
});
