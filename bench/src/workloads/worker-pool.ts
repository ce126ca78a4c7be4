import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { newSessionState } from '@agent-core/core';
import { migrate, PostgresSessionStore } from '@agent-core/store-postgres';
import { migrateWorkers, RunQueue } from '@agent-core/workers';
import { median } from '../measure.js';
import type { WorkersResult } from '../results.js';

// Workload 14: runs as jobs of @agent-core/workers, 4 worker processes of concurrency 8 on one PostgreSQL
// server, each run a session of the PostgreSQL store with a model that answers at once: runs per second
// draining a backlog of 1,000 queued before the workers start; pickup latency, from the call to enqueue to
// the run's first model request (both clocks of this machine), one run at a time into idle workers and for
// 1,000 runs enqueued at once by 16 enqueuers; and the time from a worker's SIGKILL in the middle of a
// run to the run's next model request in another worker.

const processScript = join(import.meta.dirname, '..', 'workers-process.js');
const processes = 4;
const concurrency = 8;
const leaseMs = 5_000;

interface Process {
  child: ChildProcess;
  ready: Promise<void>;
}

const now = () => performance.timeOrigin + performance.now();

/** Measures workload 14 against the server at `url`. */
export async function measureWorkerPool(url: string, log: (line: string) => void): Promise<WorkersResult> {
  const schema = `bench_workers_${process.pid}`;
  await migrate({ connectionString: url, schema });
  await migrateWorkers({ connectionString: url, schema });
  const store = new PostgresSessionStore({ connectionString: url, schema, maxConnections: 20 });
  const queue = new RunQueue({ connectionString: url, schema, store, maxConnections: 20 });
  /** Each session's first model request, as the worker process timed it. */
  const requests = new Map<string, number>();
  const waiters = new Map<string, (value: number) => void>();
  const start = (): Process => {
    const child = spawn(
      process.execPath,
      [processScript, url, schema, String(concurrency), String(leaseMs)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let buffer = '';
    let ready: () => void = () => {};
    const readyPromise = new Promise<void>((resolve) => {
      ready = resolve;
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
        const [kind, session = '', value = ''] = buffer.slice(0, end).split(' ');
        buffer = buffer.slice(end + 1);
        if (kind === 'ready') ready();
        if (kind === 'request' && !requests.has(session)) requests.set(session, Number(value));
        waiters.get(`${kind} ${session}`)?.(Number(value));
      }
    });
    return { child, ready: readyPromise };
  };
  /** The value of the next line `<what> <value>` a worker prints: a request's time, a tool's process id. */
  const seen = (what: string) =>
    new Promise<number>((resolve) => {
      waiters.set(what, (value) => {
        waiters.delete(what);
        resolve(value);
      });
    });
  const sessions = async (prefix: string, count: number) => {
    const ids = Array.from({ length: count }, (_, index) => `${prefix}-${index}`);
    for (const id of ids) await store.save(newSessionState({ id }), { expectedVersion: 0 });
    return ids;
  };
  const workers: Process[] = [];
  try {
    // A backlog: 1,000 runs queued before any worker starts, then drained by the 4.
    log('a backlog of 1,000 runs');
    const backlogIds = await sessions('backlog', 1_000);
    for (const id of backlogIds) await queue.enqueue(id, 'hello', { operationId: id });
    workers.push(...Array.from({ length: processes }, start));
    await Promise.all(workers.map((worker) => worker.ready));
    const drainStart = now();
    for (const id of backlogIds) await queue.wait(id);
    const backlogSeconds = (now() - drainStart) / 1000;
    log('idle pickup');
    const idle: number[] = [];
    for (const id of await sessions('idle', 100)) {
      const requested = seen(`request ${id}`);
      const enqueued = now();
      await queue.enqueue(id, 'hello', { operationId: id });
      idle.push((await requested) - enqueued);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    log('1,000 runs enqueued at once');
    const burstIds = await sessions('burst', 1_000);
    const enqueuedAt = new Map<string, number>();
    const first = now();
    // 16 enqueuers at once, as a busy web tier would, so runs arrive faster than one connection sends them.
    const pending = [...burstIds];
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        for (let id = pending.shift(); id !== undefined; id = pending.shift()) {
          enqueuedAt.set(id, now());
          await queue.enqueue(id, 'hello', { operationId: id });
        }
      }),
    );
    for (const id of burstIds) await queue.wait(id);
    const finished = now();
    const burst = burstIds.map((id) => (requests.get(id) ?? Number.NaN) - (enqueuedAt.get(id) ?? 0));
    log('recovery after SIGKILL');
    const recovery: number[] = [];
    for (const id of await sessions('hang', 3)) {
      const inTool = seen(`tool ${id}`);
      await queue.enqueue(id, 'hello', { operationId: id });
      const pid = await inTool;
      const index = workers.findIndex((worker) => worker.child.pid === pid);
      const victim = workers[index];
      if (victim === undefined) throw new Error(`no worker process ${pid}`);
      // The run's next model request, in whichever worker takes it over.
      const resumed = seen(`request ${id}`);
      const exited = new Promise((resolve) => victim.child.once('exit', resolve));
      victim.child.kill('SIGKILL');
      const killedAt = now();
      await exited;
      workers[index] = start();
      recovery.push((await resumed) - killedAt);
      await queue.wait(id);
    }
    return {
      processes,
      concurrency,
      leaseMs,
      idlePickup: { p50Ms: quantile(idle, 0.5), p99Ms: quantile(idle, 0.99), samples: idle.length },
      backlog: { runs: backlogIds.length, runsPerSecond: backlogIds.length / backlogSeconds },
      burst: {
        runs: burstIds.length,
        p50Ms: quantile(burst, 0.5),
        p99Ms: quantile(burst, 0.99),
        runsPerSecond: burstIds.length / ((finished - first) / 1000),
      },
      recovery: { samplesMs: recovery, medianMs: median(recovery), maxMs: Math.max(...recovery) },
    };
  } finally {
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise((resolve) => {
            if (worker.child.exitCode !== null) return resolve(undefined);
            worker.child.once('exit', resolve);
            worker.child.kill('SIGTERM');
          }),
      ),
    );
    await queue.close();
    await store.close();
  }
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
