import type { BenchResults } from './results.js';
import { number } from './report-format.js';

// Workload 14 in the report: runs as jobs of @agent-core/workers.

/** The workers' target: a dead worker's run is taken up within the lease time plus one second. */
export function workerTargets(results: BenchResults): { target: string; measured: string; pass: boolean }[] {
  const workers = results.workers;
  if (workers === undefined) return [];
  return [
    {
      target: `Workers: a dead worker's run is taken up within the lease time plus one second (workload 14, lease ${number(workers.leaseMs / 1000, 0)} s)`,
      measured: `${workers.recovery.samplesMs.map((ms) => `${number(ms / 1000, 2)} s`).join(', ')}`,
      pass: workers.recovery.maxMs <= workers.leaseMs + 1_000,
    },
  ];
}

/** Workload 14's table, or nothing when the run did not measure it. */
export function renderWorkers(results: BenchResults): string[] {
  const workers = results.workers;
  if (workers === undefined) return [];
  return [
    `### 14. Runs as jobs of @agent-core/workers\n\n${workers.processes} worker processes of concurrency ${workers.concurrency} on graphile-worker and the PostgreSQL store, on the bench's server; each run a session whose model answers at once. Pickup is from the call to \`enqueue\` to the run's first model request; the 1,000 runs at once come from 16 enqueuers of one process. Recovery is from a worker's SIGKILL in the middle of a run's tool call to that run's next model request in another worker, with a lease of ${number(workers.leaseMs / 1000, 0)} s.\n`,
    [
      '| measure | value |',
      '| --- | --- |',
      `| runs per second draining ${number(workers.backlog.runs, 0)} runs queued before the workers started | ${number(workers.backlog.runsPerSecond, 0)} |`,
      `| pickup into idle workers, one run at a time (${workers.idlePickup.samples} runs) | p50 ${number(workers.idlePickup.p50Ms)} ms, p99 ${number(workers.idlePickup.p99Ms)} ms |`,
      `| pickup of ${number(workers.burst.runs, 0)} runs enqueued at once | p50 ${number(workers.burst.p50Ms, 0)} ms, p99 ${number(workers.burst.p99Ms, 0)} ms |`,
      `| runs per second over those ${number(workers.burst.runs, 0)} runs, first enqueue to last end | ${number(workers.burst.runsPerSecond, 0)} |`,
      `| recovery after a SIGKILL (lease ${number(workers.leaseMs / 1000, 0)} s) | ${workers.recovery.samplesMs.map((ms) => `${number(ms / 1000, 2)} s`).join(', ')} |`,
    ].join('\n'),
  ];
}
