import type { PoolClient } from 'pg';
import { DuplicateOperationError } from './duplicate-operation-error.js';
import type { RunInput } from './run-input.js';
import { runInputHash } from './run-input.js';
import { outcomeColumns, outcomeFromRow, type RunOutcome } from './run-outcome.js';
import type { WorkersDatabase } from './workers-database.js';

/** graphile-worker's task name for a run. */
export const runTask = 'agent_core_run';

/** What a run job carries: the operation it runs. The input lives with the operation. */
export interface RunJobPayload {
  operationId: string;
  /** How many times workers handed the job on without running it (a busy session or provider), for their backoff. */
  deferrals?: number;
}

/** The named queue of a session's jobs: graphile-worker runs one job of a named queue at a time, in order. */
export function sessionQueueName(sessionId: string): string {
  return `agent_core:${sessionId}`;
}

/** Jobs failed by a thrown error are retried this many times by graphile-worker (a worker's own failures, not a run's). */
export const jobMaxAttempts = 25;

/** What `enqueueOperation` stores. */
export interface NewOperation {
  operationId: string;
  sessionId: string;
  input: RunInput;
  schedule?: string;
}

/**
 * Stores an operation and its job in one transaction, so neither exists
 * without the other. The same operation id with the same session and input
 * answers with the stored operation (`created` false) and writes nothing; with
 * another session or input it throws `DuplicateOperationError`.
 */
export async function enqueueOperation(
  db: WorkersDatabase,
  operation: NewOperation,
  client?: PoolClient,
): Promise<{ outcome: RunOutcome; created: boolean }> {
  const work = async (connection: PoolClient) => {
    const hash = runInputHash(operation.sessionId, operation.input);
    const inserted = await connection.query(
      `INSERT INTO ${db.quoted}.agent_core_operations (operation_id, session_id, kind, input, input_hash, schedule)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (operation_id) DO NOTHING RETURNING ${outcomeColumns}`,
      [
        operation.operationId,
        operation.sessionId,
        operation.input.type,
        JSON.stringify(operation.input),
        hash,
        operation.schedule ?? null,
      ],
    );
    const row = inserted.rows[0] as Record<string, unknown> | undefined;
    if (row === undefined) {
      const found = await connection.query(
        `SELECT ${outcomeColumns}, input_hash FROM ${db.quoted}.agent_core_operations WHERE operation_id = $1`,
        [operation.operationId],
      );
      const existing = found.rows[0] as Record<string, unknown>;
      if (existing.input_hash !== hash)
        throw new DuplicateOperationError(
          operation.operationId,
          existing.session_id as string,
          existing.session_id === operation.sessionId
            ? `session '${operation.sessionId}' with other input`
            : `another session ('${String(existing.session_id)}')`,
        );
      return { outcome: outcomeFromRow(existing), created: false };
    }
    await addRunJob(db, connection, operation.operationId, operation.sessionId, 0);
    return { outcome: outcomeFromRow(row), created: true };
  };
  return client === undefined ? db.transaction(work) : work(client);
}

/**
 * Adds the job of an operation, due in `delayMs`. Keyed by the operation id:
 * while an earlier job of the operation is running, graphile-worker adds a
 * new job and takes the key from the old one (and retries it no more), which
 * is how a worker hands an operation on without leaving a gap where no job holds it.
 */
export async function addRunJob(
  db: WorkersDatabase,
  connection: { query(text: string, values: unknown[]): Promise<unknown> },
  operationId: string,
  sessionId: string,
  delayMs: number,
  deferrals = 0,
): Promise<void> {
  const payload: RunJobPayload = deferrals === 0 ? { operationId } : { operationId, deferrals };
  await connection.query(
    `SELECT ${db.quoted}.add_job($1, $2::json, queue_name := $3,
       run_at := now() + $4 * interval '1 millisecond', max_attempts := $5, job_key := $6)`,
    [runTask, JSON.stringify(payload), sessionQueueName(sessionId), delayMs, jobMaxAttempts, operationId],
  );
}
