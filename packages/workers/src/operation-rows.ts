import { outcomeChannel } from './outcome-listener.js';
import type { RunInput } from './run-input.js';
import type { OperationEnd, OperationState } from './run-outcome.js';
import type { WorkersDatabase } from './workers-database.js';

/** An operation as a worker reads it. */
export interface OperationRow {
  operationId: string;
  position: string;
  sessionId: string;
  input: RunInput;
  state: OperationState;
  attempts: number;
  holder: string | null;
  runFromSeq: number | null;
  /**
   * Whether an operation of the same session enqueued before this one is not
   * done yet: operations of a session run in the order they were enqueued. A
   * resume is not held back by follow-ups, which wait for its decisions.
   */
  earlierOpen: boolean;
}

/** A worker's claim on an operation: the attempt it counts as, which fences what it records. */
export interface Attempt {
  operationId: string;
  number: number;
  /** Attempts before this one that handed the operation back (a stop, a session busy elsewhere) rather than dying. */
  handedOn: number;
  holder: string;
  runFromSeq: number | null;
}

/**
 * The statements a worker runs on `agent_core_operations`. Every write after
 * the claim is fenced by the attempt: a worker whose operation another one
 * took over meanwhile writes nothing (`false`).
 */
export class OperationRows {
  readonly #database: WorkersDatabase;

  constructor(database: WorkersDatabase) {
    this.#database = database;
  }

  async load(operationId: string): Promise<OperationRow | undefined> {
    const rows = await this.#database.query(
      `SELECT operation_id, position, session_id, input, state, attempts, holder, run_from_seq,
         EXISTS (SELECT 1 FROM ${this.#database.quoted}.agent_core_operations earlier
           WHERE earlier.session_id = operation.session_id AND earlier.position < operation.position
           AND earlier.state IN ('queued', 'running')
           AND NOT (operation.kind = 'resume' AND earlier.kind = 'follow_up')) AS earlier_open
       FROM ${this.#database.quoted}.agent_core_operations operation WHERE operation_id = $1`,
      [operationId],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return {
      operationId: row.operation_id as string,
      position: String(row.position),
      sessionId: row.session_id as string,
      input: row.input as RunInput,
      state: row.state as OperationState,
      attempts: row.attempts as number,
      holder: (row.holder as string | null) ?? null,
      runFromSeq: row.run_from_seq === null ? null : Number(row.run_from_seq),
      earlierOpen: row.earlier_open === true,
    };
  }

  /**
   * Counts a new attempt with this worker as its holder; undefined if the
   * operation settled meanwhile. The first attempt also records `seq`, the
   * session's last seq before its run, where the operation's run starts in
   * the session's log: it is stored before the run writes there.
   */
  async claim(operationId: string, holder: string, seq: number): Promise<Attempt | undefined> {
    const rows = await this.#database.query(
      `UPDATE ${this.#database.quoted}.agent_core_operations
       SET state = 'running', attempts = attempts + 1, holder = $2, started_at = coalesce(started_at, now()),
         run_from_seq = coalesce(run_from_seq, $3)
       WHERE operation_id = $1 AND state IN ('queued', 'running')
       RETURNING attempts, handed_on, run_from_seq`,
      [operationId, holder, seq],
    );
    const row = rows[0];
    if (row === undefined) return undefined;
    return {
      operationId,
      number: row.attempts as number,
      handedOn: row.handed_on as number,
      holder,
      runFromSeq: row.run_from_seq === null ? null : Number(row.run_from_seq),
    };
  }

  /** Records anew where the operation's run starts, when an earlier attempt stopped before writing anything. */
  startsAt(attempt: Attempt, seq: number): Promise<boolean> {
    return this.#fenced(attempt, 'run_from_seq = $3', [seq]);
  }

  /** Hands the operation back to the queue (a stopping worker, a refused claim): another attempt goes on with it. */
  release(attempt: Attempt): Promise<boolean> {
    return this.#fenced(attempt, `state = 'queued', holder = NULL, handed_on = handed_on + 1`, []);
  }

  /** Records how the operation ended and notifies those waiting for it. */
  finish(attempt: Attempt, end: OperationEnd): Promise<boolean> {
    return this.#fenced(
      attempt,
      `state = $3, outcome = $4::json, finished_at = now(), holder = NULL`,
      [end.state, JSON.stringify(end)],
      true,
    );
  }

  /** Settles an operation no attempt holds (it cannot run at all); false if it settled meanwhile. */
  async fail(operationId: string, error: { code: string; message: string }): Promise<boolean> {
    const end: OperationEnd = { state: 'failed', error };
    const rows = await this.#database.query(
      `WITH done AS (
         UPDATE ${this.#database.quoted}.agent_core_operations
         SET state = 'failed', outcome = $2::json, finished_at = now(), holder = NULL
         WHERE operation_id = $1 AND state IN ('queued', 'running') RETURNING operation_id)
       SELECT pg_notify($3, operation_id) FROM done`,
      [operationId, JSON.stringify(end), outcomeChannel(this.#database.schema)],
    );
    return rows.length > 0;
  }

  async #fenced(attempt: Attempt, set: string, values: unknown[], notify = false): Promise<boolean> {
    const update = `UPDATE ${this.#database.quoted}.agent_core_operations SET ${set}
      WHERE operation_id = $1 AND attempts = $2 AND holder = $${values.length + 3} AND state = 'running'
      RETURNING operation_id`;
    const parameters = [attempt.operationId, attempt.number, ...values, attempt.holder];
    const text = notify
      ? `WITH done AS (${update}) SELECT pg_notify($${values.length + 4}, operation_id) FROM done`
      : update;
    if (notify) parameters.push(outcomeChannel(this.#database.schema));
    const rows = await this.#database.query(text, parameters);
    return rows.length > 0;
  }
}
