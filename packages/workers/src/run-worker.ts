import { EventEmitter } from 'node:events';
import {
  ConfigError,
  type Logger,
  type Session,
  type SessionAgentOptions,
  SessionManager,
  silentLogger,
} from '@agent-core/core';
import type { Runner } from 'graphile-worker';
import { addRunJob, runTask } from './enqueue-operation.js';
import { graphileLogger, loadGraphile } from './load-graphile.js';
import { MalformedJobError } from './malformed-job-error.js';
import { ProviderSlots } from './provider-slots.js';
import { RunQueue, type RunQueueOptions, sharedDatabase } from './run-queue.js';
import { OperationRunner, type RunListener, SupersededError } from './run-operation.js';
import { cronItemsOf, fireSchedule, type RunSchedule, scheduleTask } from './run-schedule.js';
import {
  checkWorkerOptions,
  type RunWorkerOptions,
  type StopOptions,
  type StopResult,
} from './run-worker-options.js';
import { WorkerHeartbeat } from './worker-heartbeat.js';
import { WorkersDatabase } from './workers-database.js';

/**
 * Takes runs from the queue and runs them: any number of workers on any
 * number of machines share one database. A session's operations run one at a
 * time, in order; each worker runs up to `concurrency` at once, and
 * `providerLimit` bounds runs per provider key across all of them. A worker
 * that dies (SIGKILL, a lost machine) has its jobs taken by another once its
 * lease lapses; the run goes on from the session's log, finished tools never
 * run again and a call the death cut short is answered "outcome unknown"
 * unless its tool is idempotent. Runs that pause for approval leave the queue.
 *
 * @example
 * const worker = new RunWorker({ connectionString, store, agentOptions: () => ({ provider, model }) });
 * await worker.start();
 * process.once('SIGTERM', () => void worker.stop({ deadlineMs: 20_000 }));
 */
export class RunWorker {
  readonly #options: RunWorkerOptions;
  readonly #database: WorkersDatabase;
  readonly #logger: Logger;
  readonly #listeners = new Set<RunListener>();
  readonly #schedules: ReadonlyMap<string, RunSchedule>;
  readonly #queue: RunQueue;
  readonly #slots: ProviderSlots;
  readonly #runner: OperationRunner;
  #engine: Runner | undefined;
  #heartbeat: WorkerHeartbeat | undefined;
  #id: string | undefined;
  #state: 'new' | 'starting' | 'running' | 'stopping' | 'stopped' = 'new';
  #stopped: Promise<StopResult> | undefined;
  #handedOn = 0;

  constructor(options: RunWorkerOptions) {
    checkWorkerOptions(options);
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
    this.#database = new WorkersDatabase(options, 'RunWorker');
    this.#queue = new RunQueue({ ...options, [sharedDatabase]: this.#database } as RunQueueOptions);
    this.#slots = new ProviderSlots(this.#database, this.#logger);
    this.#schedules = new Map((options.schedules ?? []).map((schedule) => [schedule.name, schedule]));
    const agentOptions = new Map<string, SessionAgentOptions>();
    const manager = new SessionManager({
      store: options.store,
      logger: this.#logger,
      agentOptions: async (session) => {
        const made = await options.agentOptions(session);
        agentOptions.set(session.id, made);
        return made;
      },
    });
    this.#runner = new OperationRunner({
      database: this.#database,
      store: options.store,
      openSession: async (sessionId) => {
        const session: Session = await manager.get(sessionId);
        const made = agentOptions.get(sessionId);
        if (made === undefined)
          throw new ConfigError(`The agent options of session '${sessionId}' were not made.`);
        return { session, agentOptions: made };
      },
      closeSession: (sessionId) => {
        manager.close(sessionId);
        agentOptions.delete(sessionId);
      },
      providerLimit: options.providerLimit,
      slots: this.#slots,
      holder: () => this.#id ?? 'unstarted',
      maxAttempts: options.maxAttempts ?? 10,
      logger: this.#logger,
      listeners: this.#listeners,
      isStopping: () => this.#state === 'stopping' || this.#state === 'stopped',
    });
  }

  /** The worker's id in the engine (graphile-worker's pool id), once started. */
  get id(): string | undefined {
    return this.#id;
  }

  /** A queue on the worker's own connection, to enqueue and read outcomes. */
  get queue(): RunQueue {
    return this.#queue;
  }

  /** Runs in flight now. */
  get running(): number {
    return this.#runner.running;
  }

  /** Adds a listener for every event of the runs this worker runs; returns the function that removes it. */
  subscribe(listener: RunListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Prepares the tables (or checks them, with `autoMigrate: false`), registers
   * the worker's lease and starts taking jobs. Rejects with `ConfigError` for
   * bad schedules or missing tables, `QueueStorageError` when the database
   * cannot be reached; the worker then takes nothing.
   */
  async start(): Promise<void> {
    if (this.#state !== 'new')
      throw new ConfigError('A RunWorker starts once; make a new one to start again.');
    this.#state = 'starting';
    try {
      const graphile = await loadGraphile();
      const cronItems = cronItemsOf(graphile, this.#options.schedules ?? []);
      const pool = await this.#database.pool();
      const events = new EventEmitter();
      let registered: Promise<void> | undefined;
      events.on('pool:create', ({ workerPool }: { workerPool: { id: string } }) => {
        this.#id = workerPool.id;
        this.#heartbeat = new WorkerHeartbeat(
          this.#database,
          workerPool.id,
          this.#options.leaseDurationMs ?? 30_000,
          this.#logger,
          () => this.#runner.abortAll('this worker was taken for dead; its runs continue elsewhere'),
        );
        registered = this.#heartbeat.start();
        registered.catch(() => {});
      });
      this.#engine = await graphile.run({
        pgPool: pool,
        schema: this.#database.schema,
        concurrency: this.#options.concurrency ?? 4,
        pollInterval: this.#options.pollIntervalMs ?? 1_000,
        noHandleSignals: true,
        // The worker's own deadline aborts runs at a stop; graphile-worker's own abort is not needed.
        gracefulShutdownAbortTimeout: 2 ** 31 - 1,
        events: events as never,
        logger: graphileLogger(graphile, this.#logger),
        parsedCronItems: cronItems,
        // No job is taken before the worker's lease row exists: a death before it would leave the job locked for hours.
        forbiddenFlags: async () => {
          await registered;
          return null;
        },
        taskList: {
          [runTask]: (payload, helpers) => this.#runJob(String(helpers.job.id), payload),
          [scheduleTask]: (payload) =>
            fireSchedule(this.#database, this.#options.store, this.#schedules, payload, this.#logger),
        },
      });
      await registered;
      this.#state = 'running';
      this.#logger.info('worker started', {
        workerId: this.#id,
        concurrency: this.#options.concurrency ?? 4,
      });
    } catch (error) {
      this.#state = 'stopped';
      await this.#engine?.stop().catch(() => {});
      await this.#heartbeat?.stop();
      await this.#slots.close();
      await this.#queue.close().catch(() => {});
      throw error;
    }
  }

  async #runJob(jobId: string, payload: unknown): Promise<void> {
    const deferrals = (payload as { deferrals?: unknown } | null)?.deferrals;
    try {
      const disposition = await this.#runner.run(
        jobId,
        payload,
        typeof deferrals === 'number' ? deferrals : 0,
      );
      if (disposition.kind === 'done') return;
      const operationId = (payload as { operationId: string }).operationId;
      const sessionId = await this.#sessionOf(operationId);
      if (this.#state === 'stopping' && disposition.delayMs === 0) this.#handedOn++;
      await addRunJob(
        this.#database,
        this.#database,
        operationId,
        sessionId,
        disposition.delayMs,
        disposition.delayMs === 0 ? 0 : (typeof deferrals === 'number' ? deferrals : 0) + 1,
      );
      this.#logger.debug('a job was handed on', {
        operationId,
        delayMs: disposition.delayMs,
        reason: disposition.reason,
      });
    } catch (error) {
      if (error instanceof MalformedJobError) {
        this.#logger.error(error.message, { jobId });
        // Failed for good: a payload that names nothing runnable will not improve with retries.
        await this.#database
          .query(`UPDATE ${this.#database.quoted}._private_jobs SET max_attempts = attempts WHERE id = $1`, [
            jobId,
          ])
          .catch(() => {});
      } else if (error instanceof SupersededError) this.#logger.warn(error.message, { jobId });
      throw error;
    }
  }

  async #sessionOf(operationId: string): Promise<string> {
    const rows = await this.#database.query(
      `SELECT session_id FROM ${this.#database.quoted}.agent_core_operations WHERE operation_id = $1`,
      [operationId],
    );
    return rows[0]?.session_id as string;
  }

  /**
   * Stops taking jobs, lets the runs in flight finish until `deadlineMs`, then
   * aborts the rest and hands them on: another worker continues each from its
   * session's log. Resolves once no job is held and the worker's lease is
   * given back (ending the pool if the worker opened it). Calling it again
   * resolves the same.
   */
  stop(options: StopOptions = {}): Promise<StopResult> {
    this.#stopped ??= this.#stop(options.deadlineMs ?? 30_000);
    return this.#stopped;
  }

  async #stop(deadlineMs: number): Promise<StopResult> {
    const wasRunning = this.#state === 'running';
    this.#state = 'stopping';
    if (wasRunning) {
      const deadline = setTimeout(() => {
        if (this.#runner.running > 0)
          this.#logger.info('the stop deadline passed: runs in flight are aborted and handed on', {
            runs: this.#runner.running,
          });
        this.#runner.abortAll('the worker is stopping');
      }, deadlineMs);
      try {
        await this.#engine?.stop();
      } finally {
        clearTimeout(deadline);
      }
    }
    await this.#heartbeat?.stop();
    await this.#slots.close();
    await this.#queue.close();
    this.#state = 'stopped';
    this.#logger.info('worker stopped', { workerId: this.#id, handedOn: this.#handedOn });
    return { handedOn: this.#handedOn };
  }
}
