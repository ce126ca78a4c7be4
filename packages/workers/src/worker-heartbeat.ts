import { hostname } from 'node:os';
import type { Logger } from '@agent-core/core';
import { requeueOrphans } from './requeue-orphans.js';
import type { WorkersDatabase } from './workers-database.js';

/**
 * A worker's liveness, which graphile-worker leaves to its users: the worker
 * renews a row every third of the lease, and every worker sweeps the rows
 * whose lease lapsed, unlocking their jobs and named queues
 * (graphile-worker's `force_unlock_workers`) so another worker takes them at
 * once, rather than after graphile-worker's four hours. A worker that finds
 * its own row swept (it was frozen past its lease) registers again and is
 * told, so it stops its runs: others are taking them over.
 */
export class WorkerHeartbeat {
  readonly #database: WorkersDatabase;
  readonly #workerId: string;
  readonly #leaseMs: number;
  readonly #logger: Logger;
  readonly #onLost: () => void;
  #renewTimer: ReturnType<typeof setInterval> | undefined;
  #sweepTimer: ReturnType<typeof setInterval> | undefined;
  #beating = false;
  #sweeps = 0;

  constructor(
    database: WorkersDatabase,
    workerId: string,
    leaseMs: number,
    logger: Logger,
    onLost: () => void,
  ) {
    this.#database = database;
    this.#workerId = workerId;
    this.#leaseMs = leaseMs;
    this.#logger = logger;
    this.#onLost = onLost;
  }

  /** Registers the worker (before it takes any job) and starts renewing and sweeping. */
  async start(): Promise<void> {
    await this.#register();
    this.#renewTimer = setInterval(() => void this.#renew(), Math.max(10, this.#leaseMs / 3));
    this.#sweepTimer = setInterval(
      () => void this.sweep().catch(() => {}),
      Math.max(10, Math.min(1_000, this.#leaseMs / 3)),
    );
    this.#renewTimer.unref();
    this.#sweepTimer.unref();
  }

  async #register(): Promise<void> {
    await this.#database.query(
      `INSERT INTO ${this.#database.quoted}.agent_core_worker_processes (worker_id, host, pid, expires_at)
       VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
       ON CONFLICT (worker_id) DO UPDATE SET expires_at = excluded.expires_at`,
      [this.#workerId, hostname(), process.pid, this.#leaseMs],
    );
  }

  async #renew(): Promise<void> {
    if (this.#beating) return;
    this.#beating = true;
    try {
      const rows = await this.#database.query(
        `UPDATE ${this.#database.quoted}.agent_core_worker_processes
         SET expires_at = now() + $2 * interval '1 millisecond' WHERE worker_id = $1 RETURNING worker_id`,
        [this.#workerId, this.#leaseMs],
      );
      if (rows.length === 0) {
        this.#logger.warn(
          'this worker was taken for dead (it did not renew its lease in time): its jobs went to other workers, so its runs stop',
          { workerId: this.#workerId },
        );
        await this.#register();
        this.#onLost();
      }
    } catch (error) {
      this.#logger.warn('a worker could not renew its lease; it tries again', {
        workerId: this.#workerId,
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      this.#beating = false;
    }
  }

  /**
   * Unlocks the jobs of workers whose lease lapsed and wakes the workers
   * waiting for jobs; resolves how many dead workers it found.
   */
  async sweep(): Promise<number> {
    const quoted = this.#database.quoted;
    const dead = await this.#database.transaction(async (client) => {
      const { rows } = await client.query(
        `DELETE FROM ${quoted}.agent_core_worker_processes WHERE expires_at < now() RETURNING worker_id`,
      );
      const ids = rows.map((row: { worker_id: string }) => row.worker_id);
      if (ids.length > 0) {
        await client.query(`SELECT ${quoted}.force_unlock_workers($1::text[])`, [ids]);
        await client.query(`SELECT pg_notify('jobs:insert', $1)`, [
          JSON.stringify({ r: Math.random(), count: 1 }),
        ]);
      }
      return ids;
    });
    if (dead.length > 0)
      this.#logger.warn('workers stopped renewing their lease: their jobs were released to the others', {
        workers: dead,
      });
    // Now and then, an open operation left without a job gets one (see `requeueOrphans`).
    if (++this.#sweeps % 30 === 0) {
      const orphans = await requeueOrphans(this.#database, 3 * this.#leaseMs);
      if (orphans > 0)
        this.#logger.warn('open operations without a job were given one', { operations: orphans });
    }
    return dead.length;
  }

  /** Stops renewing and removes the worker's row, once it holds no job. */
  async stop(): Promise<void> {
    clearInterval(this.#renewTimer);
    clearInterval(this.#sweepTimer);
    await this.#database
      .query(`DELETE FROM ${this.#database.quoted}.agent_core_worker_processes WHERE worker_id = $1`, [
        this.#workerId,
      ])
      .catch(() => {});
  }
}
