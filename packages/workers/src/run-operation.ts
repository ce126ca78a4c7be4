import {
  type AgentEvent,
  type AgentResult,
  type AgentRun,
  AgentError,
  type Logger,
  type Session,
  type SessionAgentOptions,
  type SessionStore,
  toAgentError,
} from '@agent-core/core';
import { MalformedJobError } from './malformed-job-error.js';
import { type Attempt, type OperationRow, OperationRows } from './operation-rows.js';
import { planOperation } from './operation-plan.js';
import type { ProviderSlot, ProviderSlots } from './provider-slots.js';
import type { OperationEnd } from './run-outcome.js';
import { endOfPlan, endOfResult, lastText } from './operation-end.js';
import type { WorkersDatabase } from './workers-database.js';

/** Where a run of the queue belongs: what a listener gets with each event. */
export interface QueuedRun {
  sessionId: string;
  operationId: string;
}

/** Receives every event of the runs a worker runs, with the run's session and operation. */
export type RunListener = (event: AgentEvent, run: QueuedRun) => void;

/** A provider's limit key and how many runs may use it at once across the workers (see `RunWorkerOptions.providerLimit`). */
export interface ProviderLimit {
  key: string;
  limit: number;
}

/** What a worker gives the runner of its jobs. */
export interface OperationRunnerOptions {
  database: WorkersDatabase;
  store: SessionStore;
  /** Opens a session (loaded from the store, a crashed run repaired) with the agent options its factory gave. */
  openSession(sessionId: string): Promise<{ session: Session; agentOptions: SessionAgentOptions }>;
  /** Forgets an open session, so the next operation of it loads it again. */
  closeSession(sessionId: string): void;
  providerLimit?: (
    options: SessionAgentOptions,
    session: { id: string; metadata: Record<string, unknown> },
  ) => ProviderLimit | undefined;
  slots: ProviderSlots;
  /** The worker's id, which its claims carry. */
  holder(): string;
  maxAttempts: number;
  logger: Logger;
  listeners: ReadonlySet<RunListener>;
  /** True once the worker stops: no run starts, runs aborted by the stop are handed on. */
  isStopping(): boolean;
}

/** What becomes of a job: done (its operation settled or was never runnable), or handed on to run again after a delay. */
export type JobDisposition = { kind: 'done' } | { kind: 'defer'; delayMs: number; reason: string };

/** Thrown when another worker took the operation over: the job is left to the engine, nothing is recorded. */
export class SupersededError extends Error {
  constructor(operationId: string) {
    super(`operation ${operationId} was taken over by another worker; this one recorded nothing`);
    this.name = 'SupersededError';
  }
}

/**
 * Runs the operation a job names, from wherever it got to: in the order of
 * its session's operations, under its provider's limit, in a session no
 * other process is running, resumed from the session's log when an earlier
 * attempt died mid-run (so a finished tool never runs again), and records
 * how it ended. Anything that only needs waiting (an earlier operation, a
 * busy session or provider, a database that is back soon) hands the job on.
 */
export class OperationRunner {
  readonly #options: OperationRunnerOptions;
  readonly #rows: OperationRows;
  readonly #running = new Map<string, (reason: string) => void>();

  constructor(options: OperationRunnerOptions) {
    this.#options = options;
    this.#rows = new OperationRows(options.database);
  }

  /** Runs in flight, by operation id. */
  get running(): number {
    return this.#running.size;
  }

  /** Aborts every run in flight (a stop's deadline, a lost lease); each is handed on. */
  abortAll(reason: string): void {
    for (const abort of this.#running.values()) abort(reason);
  }

  async run(jobId: string, payload: unknown, deferrals: number): Promise<JobDisposition> {
    const operationId = operationIdOf(jobId, payload);
    const operation = await this.#rows.load(operationId);
    if (operation === undefined)
      throw new MalformedJobError(
        jobId,
        `it names operation '${operationId}', which the queue does not hold`,
      );
    if (operation.state === 'finished' || operation.state === 'failed') return { kind: 'done' };
    if (this.#options.isStopping()) return defer(0, 'the worker is stopping');
    if (operation.earlierOpen)
      return defer(
        backoff(deferrals, 100, 1_000),
        'an operation enqueued before it for the session is not done',
      );
    let session: Session;
    let agentOptions: SessionAgentOptions;
    try {
      ({ session, agentOptions } = await this.#options.openSession(operation.sessionId));
    } catch (error) {
      this.#options.closeSession(operation.sessionId);
      return this.#cannotOpen(operation, error, deferrals);
    }
    let slot: ProviderSlot | undefined;
    try {
      if (session.status === 'running')
        return defer(backoff(deferrals, 100, 1_000), 'another process is running the session');
      if (operation.input.type === 'follow_up' && session.status === 'await_user')
        return defer(backoff(deferrals, 500, 5_000), 'a follow-up waits for the session’s pending decisions');
      const limit = this.#options.providerLimit?.(agentOptions, {
        id: session.id,
        metadata: session.metadata,
      });
      if (limit !== undefined) {
        slot = await this.#options.slots.tryAcquire(limit.key, limit.limit);
        if (slot === undefined)
          return defer(backoff(deferrals, 50, 500), `provider '${limit.key}' is at its limit`);
      }
      const attempt = await this.#rows.claim(operation.operationId, this.#options.holder(), session.lastSeq);
      if (attempt === undefined) return { kind: 'done' };
      // Attempts handed back on purpose (a stop, a busy session) do not count: only those whose worker died.
      if (attempt.number - attempt.handedOn > this.#options.maxAttempts) {
        await this.#finish(attempt, {
          state: 'failed',
          error: {
            code: 'too_many_attempts',
            message: `Operation '${operation.operationId}' was started ${attempt.number - attempt.handedOn - 1} times by workers that stopped before it settled (they died or were taken for dead), so it was given up. The session keeps what its runs wrote; enqueue again to go on.`,
          },
        });
        return { kind: 'done' };
      }
      return await this.#attempt(operation, attempt, session, deferrals);
    } finally {
      await slot?.release();
      this.#options.closeSession(operation.sessionId);
    }
  }

  async #attempt(
    operation: OperationRow,
    attempt: Attempt,
    session: Session,
    deferrals: number,
  ): Promise<JobDisposition> {
    const { store } = this.#options;
    // The session was just loaded, so its last seq covers the whole log: a run starting there has written nothing yet.
    const fresh = attempt.runFromSeq === session.lastSeq;
    const records = fresh ? [] : await store.read(session.id, { fromSeq: (attempt.runFromSeq ?? 0) + 1 });
    const plan = fresh ? ({ kind: 'start' } as const) : planOperation(attempt.runFromSeq, records);
    if (plan.kind === 'ended') {
      await this.#finish(attempt, endOfPlan(plan, lastText(session.messages)));
      return { kind: 'done' };
    }
    if (plan.kind === 'start' && !fresh && !(await this.#rows.startsAt(attempt, session.lastSeq)))
      throw new SupersededError(operation.operationId);
    let run: AgentRun;
    try {
      run = startRun(session, operation, plan.kind === 'continue');
    } catch (error) {
      return this.#refused(attempt, error, deferrals);
    }
    const queued: QueuedRun = { sessionId: session.id, operationId: operation.operationId };
    const unsubscribe = session.agent.subscribe((event) => {
      for (const listener of this.#options.listeners) {
        try {
          listener(event, queued);
        } catch (error) {
          this.#options.logger.warn('a run listener threw; the run goes on', { error: String(error) });
        }
      }
    });
    this.#running.set(operation.operationId, (reason) => session.cancel(reason));
    let result: AgentResult;
    try {
      result = await run.result();
    } finally {
      this.#running.delete(operation.operationId);
      unsubscribe();
    }
    return this.#ended(attempt, result, deferrals);
  }

  async #ended(attempt: Attempt, result: AgentResult, deferrals: number): Promise<JobDisposition> {
    const code = result.error === undefined ? undefined : toAgentError(result.error).code;
    if (result.terminateReason === 'aborted') {
      // Only a stop (or a lost lease) aborts a queued run: the run is handed on, to be continued from the log.
      if (!(await this.#rows.release(attempt))) throw new SupersededError(attempt.operationId);
      return defer(0, 'the worker stopped the run to hand it on');
    }
    if (code === 'session_lease_lost') throw new SupersededError(attempt.operationId);
    if (code === 'session_busy' || code === 'session_conflict')
      return this.#refused(attempt, result.error, deferrals);
    if (isRetryableStorage(result.error)) {
      if (!(await this.#rows.release(attempt))) throw new SupersededError(attempt.operationId);
      return defer(backoff(deferrals, 1_000, 30_000), 'the session store is unavailable');
    }
    await this.#finish(attempt, endOfResult(result));
    return { kind: 'done' };
  }

  /** A run that could not start: a claim lost to another process waits and tries again; anything else fails the operation. */
  async #refused(attempt: Attempt, error: unknown, deferrals: number): Promise<JobDisposition> {
    const failure = toAgentError(error);
    if (failure.code === 'session_busy' || failure.code === 'session_conflict') {
      if (!(await this.#rows.release(attempt))) throw new SupersededError(attempt.operationId);
      return defer(backoff(deferrals, 100, 1_000), 'another process took the session first');
    }
    await this.#finish(attempt, { state: 'failed', error: { code: failure.code, message: failure.message } });
    return { kind: 'done' };
  }

  async #cannotOpen(operation: OperationRow, error: unknown, deferrals: number): Promise<JobDisposition> {
    if (isRetryableStorage(error))
      return defer(backoff(deferrals, 1_000, 30_000), 'the session store is unavailable');
    const failure = toAgentError(error);
    this.#options.logger.warn('an operation cannot run: its session could not be opened', {
      operationId: operation.operationId,
      sessionId: operation.sessionId,
      code: failure.code,
    });
    await this.#rows.fail(operation.operationId, { code: failure.code, message: failure.message });
    return { kind: 'done' };
  }

  async #finish(attempt: Attempt, end: OperationEnd): Promise<void> {
    if (!(await this.#rows.finish(attempt, end))) throw new SupersededError(attempt.operationId);
    this.#options.logger.debug('operation settled', {
      operationId: attempt.operationId,
      state: end.state,
      terminateReason: end.terminateReason,
    });
  }
}

/** Starts the run an operation asks for, or continues the one an earlier attempt began. */
function startRun(session: Session, operation: OperationRow, continuing: boolean): AgentRun {
  const input = operation.input;
  if (input.type === 'resume') {
    try {
      return session.resume({ decisions: input.decisions });
    } catch (error) {
      // Continuing after a crash: the calls decided may all have their results already.
      if (continuing && AgentError.isInstance(error) && error.code === 'approval_already_decided')
        return session.resume();
      throw error;
    }
  }
  if (continuing) return session.resume();
  return session.prompt(input.type === 'prompt' ? input.prompt : input.message);
}

function operationIdOf(jobId: string, payload: unknown): string {
  const operationId = (payload as { operationId?: unknown } | null)?.operationId;
  if (
    typeof payload !== 'object' ||
    payload === null ||
    typeof operationId !== 'string' ||
    operationId === ''
  )
    throw new MalformedJobError(
      jobId,
      `its payload ${JSON.stringify(payload)?.slice(0, 120) ?? 'undefined'} has no operationId`,
    );
  return operationId;
}

function isRetryableStorage(error: unknown): boolean {
  return (
    AgentError.isInstance(error) &&
    error.code.startsWith('session_storage_') &&
    (error as AgentError & { retryable?: boolean }).retryable === true
  );
}

function defer(delayMs: number, reason: string): JobDisposition {
  return { kind: 'defer', delayMs, reason };
}

/** A delay that doubles with each deferral of the job, from `base` up to `max`, with jitter so workers do not move in step. */
function backoff(deferrals: number, base: number, max: number): number {
  const delay = Math.min(max, base * 2 ** Math.min(deferrals, 10));
  return Math.round(delay * (0.75 + Math.random() * 0.5));
}
