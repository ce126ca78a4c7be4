import {
  AgentError,
  ConfigError,
  checkSessionId,
  type Logger,
  newSessionState,
  type PromptInput,
  type SessionStore,
} from '@agent-core/core';
import type { ParsedCronItem } from 'graphile-worker';
import { enqueueOperation } from './enqueue-operation.js';
import type { Graphile } from './load-graphile.js';
import { checkRunInput } from './run-input.js';
import type { WorkersDatabase } from './workers-database.js';

/**
 * A prompt run on a cron schedule ("a report every morning"): at most one run
 * at a time, and one per tick whatever the number of workers. Every worker
 * that serves the schedule must be given it alike.
 */
export interface RunSchedule {
  /** Names the schedule: letters, digits, `_` and `-`. */
  name: string;
  /** Five cron fields (minute, hour, day of month, month, day of week), in UTC: `0 7 * * 1-5` is 07:00 UTC on weekdays. */
  cron: string;
  prompt: PromptInput;
  /** The session every run goes to, created on the first tick. Default: a new session per tick, `<name>-<tick>`. */
  sessionId?: string;
  /** Metadata of the sessions the schedule creates (it adds `schedule: name`). */
  metadata?: Record<string, unknown>;
  /** Ticks missed while no worker served the schedule, up to this far back, run once a worker starts. Default 0: none. */
  backfillMs?: number;
}

/** graphile-worker's task name for a schedule's tick. */
export const scheduleTask = 'agent_core_schedule';

const namePattern = /^[A-Za-z0-9_-]{1,64}$/;

/** Checks schedules and turns them into graphile-worker's cron items (`ConfigError` for a bad one). */
export function cronItemsOf(graphile: Graphile, schedules: readonly RunSchedule[]): ParsedCronItem[] {
  const names = new Set<string>();
  for (const schedule of schedules) {
    if (!namePattern.test(String(schedule?.name)))
      throw new ConfigError(
        `A schedule's name must be 1 to 64 letters, digits, _ or -, got ${JSON.stringify(schedule?.name)}.`,
      );
    if (names.has(schedule.name))
      throw new ConfigError(`Two schedules are named '${schedule.name}'; names must differ.`);
    names.add(schedule.name);
    if (schedule.sessionId !== undefined) checkSessionId(schedule.sessionId);
    checkRunInput({ type: 'prompt', prompt: schedule.prompt });
  }
  try {
    return graphile.parseCronItems(
      schedules.map((schedule) => ({
        task: scheduleTask,
        match: schedule.cron,
        identifier: `agent_core_schedule:${schedule.name}`,
        options: { backfillPeriod: schedule.backfillMs ?? 0, maxAttempts: 10 },
        payload: { schedule: schedule.name },
      })),
    );
  } catch (error) {
    throw new ConfigError(
      `A schedule's cron is invalid: ${error instanceof Error ? error.message : String(error)}. Use five fields (minute hour day-of-month month day-of-week), e.g. '0 7 * * *'.`,
      { cause: error },
    );
  }
}

/**
 * One tick of a schedule (graphile-worker's cron added the job, once per tick
 * across workers): enqueues the prompt as operation
 * `schedule:<name>:<tick>`, unless the schedule's previous run is still
 * queued or running, in which case the tick is skipped and logged.
 */
export async function fireSchedule(
  database: WorkersDatabase,
  store: SessionStore,
  schedules: ReadonlyMap<string, RunSchedule>,
  payload: unknown,
  logger: Logger,
): Promise<void> {
  const name = (payload as { schedule?: unknown } | null)?.schedule;
  const tick = (payload as { _cron?: { ts?: unknown } } | null)?._cron?.ts;
  const schedule = typeof name === 'string' ? schedules.get(name) : undefined;
  // A worker that was not given the schedule leaves the tick to one that was (the job is retried).
  if (schedule === undefined || typeof tick !== 'string')
    throw new Error(
      `this worker serves no schedule ${JSON.stringify(name)}; give every worker the same schedules`,
    );
  const tickTime = new Date(tick).toISOString();
  const operationId = `schedule:${schedule.name}:${tickTime}`;
  if (await previousRunOpen(database, schedule.name, operationId)) {
    logger.warn('a schedule tick was skipped: the previous run is not done', {
      schedule: schedule.name,
      tick: tickTime,
    });
    return;
  }
  const sessionId = schedule.sessionId ?? `${schedule.name}-${tickTime.replace(/[^0-9]/g, '').slice(0, 14)}`;
  await database.transaction(async (client) => {
    // One tick at a time per schedule, so two ticks cannot both find no run open.
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `agent_core_schedule:${database.schema}:${schedule.name}`,
    ]);
    const open = await client.query(
      `SELECT 1 FROM ${database.quoted}.agent_core_operations
       WHERE schedule = $1 AND state IN ('queued', 'running') AND operation_id <> $2 LIMIT 1`,
      [schedule.name, operationId],
    );
    if (open.rows.length > 0) {
      logger.warn('a schedule tick was skipped: the previous run is not done', {
        schedule: schedule.name,
        tick: tickTime,
      });
      return;
    }
    // Made only for a tick that runs, so a skipped tick leaves no empty session behind.
    await ensureSession(store, sessionId, { ...schedule.metadata, schedule: schedule.name });
    const { created } = await enqueueOperation(
      database,
      { operationId, sessionId, input: { type: 'prompt', prompt: schedule.prompt }, schedule: schedule.name },
      client,
    );
    if (created)
      logger.info('a schedule enqueued its run', { schedule: schedule.name, operationId, sessionId });
  });
}

async function previousRunOpen(
  database: WorkersDatabase,
  name: string,
  operationId: string,
): Promise<boolean> {
  const rows = await database.query(
    `SELECT 1 FROM ${database.quoted}.agent_core_operations
     WHERE schedule = $1 AND state IN ('queued', 'running') AND operation_id <> $2 LIMIT 1`,
    [name, operationId],
  );
  return rows.length > 0;
}

/** Creates the session unless the store has it already. */
async function ensureSession(
  store: SessionStore,
  id: string,
  metadata: Record<string, unknown>,
): Promise<void> {
  try {
    await store.save(newSessionState({ id, metadata }), { expectedVersion: 0 });
  } catch (error) {
    if (!(AgentError.isInstance(error) && error.code === 'session_conflict')) throw error;
  }
}
