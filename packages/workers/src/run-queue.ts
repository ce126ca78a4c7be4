import {
  AgentError,
  ApprovalError,
  type ApprovalDecision,
  ConfigError,
  checkSessionId,
  type Logger,
  type SessionStore,
  silentLogger,
} from '@agent-core/core';
import { decisionsForPause } from './decisions-for-pause.js';
import { enqueueOperation } from './enqueue-operation.js';
import { OperationNotFoundError } from './operation-not-found-error.js';
import { OutcomeListener } from './outcome-listener.js';
import { checkRunInput, type RunInputLike } from './run-input.js';
import { isSettled, outcomeColumns, outcomeFromRow, type RunOutcome } from './run-outcome.js';
import { RunInputError } from './run-input-error.js';
import { type WorkersConnectionOptions, WorkersDatabase } from './workers-database.js';

/** Options of `new RunQueue(...)`: where the queue lives, and the session store it enqueues for. */
export interface RunQueueOptions extends WorkersConnectionOptions {
  /** The sessions' store (a `PostgresSessionStore` in practice): an enqueue checks the session is there. */
  store: SessionStore;
  logger?: Logger;
}

/** Options of `enqueue`. */
export interface EnqueueOptions {
  /** Names the work: the same id again with the same input is the same operation, never a second run. */
  operationId: string;
}

/** Options of `wait`. */
export interface WaitOptions {
  /** Resolve with the outcome as it stands after this long, settled or not. Default: wait until it settles. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Options of `decide`. */
export interface DecideOptions {
  /** The resume's operation id. Default `decide:<session>:<seq of the pause>`, the same for every process deciding that pause. */
  operationId?: string;
}

const operationIdPattern = /^[\x21-\x7e]{1,200}$/;

/** A worker's queue shares the worker's database: given under this key, never by users. */
export const sharedDatabase = Symbol('agent-core.workers.database');

/**
 * Enqueues runs for sessions from any process (a web handler, a CLI, a cron
 * job), for workers on any machine to take (see `RunWorker`), and reads their
 * outcomes. Every enqueue names its work with an operation id, so a retried
 * request never runs twice.
 *
 * @example
 * const queue = new RunQueue({ connectionString: process.env.DATABASE_URL, store });
 * await queue.enqueue(sessionId, 'Summarise the report', { operationId: requestId });
 * const outcome = await queue.wait(requestId);
 */
export class RunQueue {
  readonly #database: WorkersDatabase;
  readonly #store: SessionStore;
  readonly #logger: Logger;
  #listener: OutcomeListener | undefined;

  constructor(options: RunQueueOptions) {
    if (typeof options?.store?.load !== 'function')
      throw new ConfigError(
        'RunQueue needs store: the SessionStore the workers run sessions from (a PostgresSessionStore, say).',
      );
    const shared = (options as { [sharedDatabase]?: WorkersDatabase })[sharedDatabase];
    this.#database = shared ?? new WorkersDatabase(options, 'RunQueue');
    this.#store = options.store;
    this.#logger = options.logger ?? silentLogger;
  }

  /** The server and schema the queue uses, as messages name them (never the password). */
  get where(): string {
    return this.#database.where;
  }

  /**
   * Enqueues a prompt (a string, or `{ type: 'prompt', prompt }`), a
   * follow-up or a resume for a stored session, and resolves its outcome
   * (`queued` when new). The operation and its job are written in one
   * transaction. The same `operationId` again with the same session and input
   * resolves the stored operation, whatever its state, and runs nothing more.
   * Throws `SessionNotFoundError` for a session the store does not hold,
   * `RunInputError` for bad input, `DuplicateOperationError` for an id already
   * used for other work, `QueueStorageError` when the database fails; in each
   * case nothing was written.
   */
  async enqueue(sessionId: string, input: RunInputLike, options: EnqueueOptions): Promise<RunOutcome> {
    checkSessionId(sessionId);
    const operationId = checkOperationId(options?.operationId);
    const checked = checkRunInput(input);
    // A run of a session that is not there would only fail later, in a worker: say so now.
    await this.#store.load(sessionId);
    const { outcome, created } = await enqueueOperation(this.#database, {
      operationId,
      sessionId,
      input: checked,
    });
    if (created) this.#logger.debug('run enqueued', { operationId, sessionId, type: checked.type });
    return outcome;
  }

  /** The operation's outcome as it stands now, or undefined for an id never enqueued. */
  async outcome(operationId: string): Promise<RunOutcome | undefined> {
    const rows = await this.#database.query(
      `SELECT ${outcomeColumns} FROM ${this.#database.quoted}.agent_core_operations WHERE operation_id = $1`,
      [checkOperationId(operationId)],
    );
    const row = rows[0];
    return row === undefined ? undefined : outcomeFromRow(row);
  }

  /** The session's latest operation, as it stands now, or undefined when none was ever enqueued for it. */
  async latest(sessionId: string): Promise<RunOutcome | undefined> {
    checkSessionId(sessionId);
    const rows = await this.#database.query(
      `SELECT ${outcomeColumns} FROM ${this.#database.quoted}.agent_core_operations
       WHERE session_id = $1 ORDER BY position DESC LIMIT 1`,
      [sessionId],
    );
    const row = rows[0];
    return row === undefined ? undefined : outcomeFromRow(row);
  }

  /**
   * Resolves the operation's outcome once it is settled (`finished` or
   * `failed`): told by a notification from the worker that ended it, or found
   * by a look every two seconds should a notification be missed. With
   * `timeoutMs`, resolves the outcome as it stands when the time is up.
   * Rejects with `OperationNotFoundError` for an id never enqueued, and with
   * the signal's reason when it aborts.
   */
  async wait(operationId: string, options: WaitOptions = {}): Promise<RunOutcome> {
    const id = checkOperationId(operationId);
    const listener = (this.#listener ??= new OutcomeListener(this.#database, this.#logger));
    const deadline = options.timeoutMs === undefined ? undefined : performance.now() + options.timeoutMs;
    for (;;) {
      options.signal?.throwIfAborted();
      const ended = listener.next(id);
      const outcome = await this.outcome(id);
      if (outcome === undefined) {
        ended.cancel();
        throw new OperationNotFoundError(id);
      }
      const left = deadline === undefined ? 2_000 : Math.min(2_000, deadline - performance.now());
      if (isSettled(outcome) || left <= 0) {
        ended.cancel();
        return outcome;
      }
      await ended.within(left, options.signal);
    }
  }

  /**
   * Decides the calls a paused session waits for and enqueues the resume that
   * applies them; a worker runs it, and each approved call runs once. Give
   * the decisions, or `'allow'` / `'deny'` for every waiting call. The
   * operation id defaults to one derived from the pause, so two processes
   * deciding the same pause alike enqueue one resume, and the second to
   * decide otherwise gets `ApprovalError` (`approval_claimed`). Throws
   * `ApprovalError` when nothing waits (`approval_already_decided`) or a
   * decision names a call that does not wait or other input, and
   * `SessionNotFoundError` for an unknown session; nothing is written then.
   */
  async decide(
    sessionId: string,
    decisions: readonly ApprovalDecision[] | 'allow' | 'deny',
    options: DecideOptions = {},
  ): Promise<RunOutcome> {
    checkSessionId(sessionId);
    const pause = await decisionsForPause(this.#store, sessionId, decisions);
    const operationId = checkOperationId(options.operationId ?? `decide:${sessionId}:${pause.seq}`);
    try {
      const { outcome } = await enqueueOperation(this.#database, {
        operationId,
        sessionId,
        input: { type: 'resume', decisions: pause.decisions },
      });
      return outcome;
    } catch (error) {
      if (AgentError.isInstance(error) && error.code === 'duplicate_operation')
        throw new ApprovalError(
          'approval_claimed',
          `Another process already decided the calls session '${sessionId}' waits for, differently; its resume is operation '${operationId}' (RunQueue.outcome('${operationId}') says how it went). These decisions were not applied and nothing ran.`,
          undefined,
          { cause: error },
        );
      throw error;
    }
  }

  /** Stops listening and ends the pool if the queue opened it. Later calls reject with `ConfigError`. */
  async close(): Promise<void> {
    await this.#listener?.close();
    await this.#database.close();
  }
}

/** The operation id, or `RunInputError` when it is not 1 to 200 visible ASCII characters. */
function checkOperationId(operationId: unknown): string {
  if (typeof operationId !== 'string' || !operationIdPattern.test(operationId))
    throw new RunInputError(
      `operationId must be 1 to 200 visible ASCII characters (a request id, a UUID), got ${typeof operationId === 'string' ? JSON.stringify(operationId.slice(0, 40)) : typeof operationId}`,
    );
  return operationId;
}
