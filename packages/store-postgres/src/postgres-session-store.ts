import { hostname } from 'node:os';
import {
  checkAppendOptions,
  checkSaveOptions,
  checkSessionEvents,
  checkSessionId,
  checkSessionState,
  ConfigError,
  type ListSessionsOptions,
  type Logger,
  type SaveSessionOptions,
  SessionBusyError,
  type SessionEvent,
  type SessionLease,
  type SessionLogRecord,
  SessionNotFoundError,
  type SessionPage,
  type SessionState,
  type SessionStore,
  silentLogger,
} from '@agent-core/core';
import { AppendEntries } from './append-entries.js';
import { listSessions } from './list-sessions.js';
import { loginSettings } from './login-problem.js';
import { describeTarget, poolSize } from './postgres-pool.js';
import { leaseToken, PostgresSessionLease } from './postgres-session-lease.js';
import { type PruneOptions, type PruneResult, pruneSessions } from './prune-sessions.js';
import { saveState } from './save-state.js';
import { readStoredEvent, readStoredState } from './read-stored-rows.js';
import { quotedSchema } from './schema-name.js';
import { type SessionStatements, sessionStatements } from './session-statements.js';
import { checkStoreOptions, passwordScrubber, type PostgresSessionStoreOptions } from './store-options.js';
import { StoreConnection } from './store-connection.js';
import { storedJson } from './stored-json.js';
import { knownFromRow, SummaryCache } from './summary-cache.js';

/**
 * A `SessionStore` in PostgreSQL, for many processes or machines sharing
 * sessions: any of them can load, run, resume or repair any session.
 * Snapshots are jsonb rows with a version (a stale save is refused with
 * `SessionConflictError`); the events log is an append-only table keyed by
 * (session, seq), so each step writes what it added; summaries change in the
 * same statement as the save or append that changes them. `lease` gives a run
 * lease with an expiry on the server's clock, renewed while held, and a
 * fencing token that only goes up, so a write from a holder that was taken
 * over is refused with `SessionLeaseLostError`. Failures of the server are
 * `SessionStorageError`s; `unavailable` ones are retryable.
 *
 * @example
 * const store = new PostgresSessionStore({ connectionString: process.env.DATABASE_URL });
 * const manager = new SessionManager({ store, agentOptions: () => ({ provider, model }) });
 * // ...
 * await store.close();
 */
export class PostgresSessionStore implements SessionStore {
  /** Where the sessions live, for messages: `postgres://user@host:port/database (schema public)`, never the password. */
  readonly where: string;
  /** The PostgreSQL schema of its tables. */
  readonly schema: string;
  readonly #connection: StoreConnection;
  readonly #statements: SessionStatements;
  readonly #known = new SummaryCache(10_000);
  readonly #appends: AppendEntries;
  readonly #leaseDurationMs: number;
  readonly #holder = `process ${process.pid} on ${hostname()}`;
  readonly #leases = new Set<PostgresSessionLease>();
  readonly #chains = new Map<string, Promise<unknown>>();
  readonly #logger: Logger;
  #bytesWritten = 0;

  constructor(options: PostgresSessionStoreOptions) {
    const checked = checkStoreOptions(options);
    const quoted = quotedSchema(checked.schema);
    this.schema = checked.schema;
    this.where = describeTarget(checked, checked.schema);
    this.#logger = options.logger ?? silentLogger;
    this.#leaseDurationMs = checked.leaseDurationMs;
    this.#statements = sessionStatements(quoted);
    this.#connection = new StoreConnection({
      pool: checked.pool ?? {
        connectionString: checked.connectionString as string,
        maxConnections: checked.maxConnections,
        statementTimeoutMs: checked.statementTimeoutMs,
        idleInTransactionTimeoutMs: checked.idleInTransactionTimeoutMs,
        connectionTimeoutMs: checked.connectionTimeoutMs,
      },
      schema: checked.schema,
      quotedSchema: quoted,
      where: this.where,
      scrub: passwordScrubber(checked),
      autoMigrate: checked.autoMigrate,
      logger: this.#logger,
      login: loginSettings(checked),
    });
    const connections = checked.pool === undefined ? checked.maxConnections : (poolSize(checked.pool) ?? 10);
    // Half the pool for appends, in batches; the rest stays free for loads, saves and leases.
    this.#appends = new AppendEntries(this.#connection, this.#statements, this.#known, {
      concurrency: Math.max(1, Math.floor(connections / 2)),
      maxBatch: 256,
    });
  }

  /** Bytes of JSON this store has sent for snapshots and log entries since it was made: for measuring. */
  get bytesWritten(): number {
    return this.#bytesWritten;
  }

  async load(id: string): Promise<SessionState> {
    checkSessionId(id);
    const { rows } = await this.#connection.query(
      { text: this.#statements.load, values: [id] },
      { idempotent: true },
    );
    const row = rows[0];
    if (row === undefined) throw new SessionNotFoundError(id, this.where);
    const state = await readStoredState(row, `session '${id}' in ${this.where}`);
    this.#known.set(id, knownFromRow(id, row));
    return state;
  }

  async save(state: SessionState, options: SaveSessionOptions): Promise<{ version: number }> {
    checkSessionId(state?.id);
    checkSaveOptions(options);
    await checkSessionState(state);
    const expectedVersion = options.expectedVersion;
    const token = leaseToken(options.lease, state.id);
    return this.#exclusive(state.id, async () => {
      const saved = await saveState(this.#connection, this.#statements, this.#known, {
        state,
        expectedVersion,
        token,
      });
      this.#bytesWritten += saved.bytes;
      return { version: saved.version };
    });
  }

  async list(options?: ListSessionsOptions): Promise<SessionPage> {
    return listSessions(this.#connection, this.#statements, options);
  }

  /** Deletes the session's row, log and appends in one transaction; false when there was none. */
  async delete(id: string): Promise<boolean> {
    checkSessionId(id);
    return this.#exclusive(id, async () => {
      this.#known.delete(id);
      return this.#connection.transaction(async (client) => {
        // The row first: an append in flight holds it, and its records are committed before they are deleted.
        const { rows } = await client.query({ text: this.#statements.deleteSession, values: [id] });
        if (rows.length === 0) return false;
        await client.query({ text: this.#statements.deleteEvents, values: [[id]] });
        await client.query({ text: this.#statements.deleteAppends, values: [[id]] });
        return true;
      });
    });
  }

  async append(
    id: string,
    entries: readonly SessionEvent[],
    options: { operationId: string; lease?: SessionLease },
  ): Promise<{ firstSeq: number; lastSeq: number }> {
    checkSessionId(id);
    if (!Array.isArray(entries))
      throw new ConfigError(`append needs an array of log entries, got ${typeof entries}.`);
    checkAppendOptions(options);
    const operationId = options.operationId;
    checkSessionEvents(id, entries);
    const token = leaseToken(options.lease, id);
    // Serialised before any statement: a transaction never waits for JSON.
    const eventsJson = `[${entries.map((entry) => storedJson(entry)).join(',')}]`;
    return this.#exclusive(id, async () => {
      const seqs = await this.#appends.append({ sessionId: id, operationId, entries, eventsJson, token });
      this.#bytesWritten += Buffer.byteLength(eventsJson);
      return seqs;
    });
  }

  async read(id: string, options: { fromSeq?: number } = {}): Promise<SessionLogRecord[]> {
    checkSessionId(id);
    const fromSeq = options.fromSeq ?? 1;
    const { rows } = await this.#connection.query(
      { text: this.#statements.read, values: [id, fromSeqValue(fromSeq)] },
      { idempotent: true },
    );
    if (rows.length === 0) throw new SessionNotFoundError(id, this.where);
    const records: SessionLogRecord[] = [];
    const source = `the events log of session '${id}' in ${this.where}`;
    for (const row of rows) {
      if (row.seq === null) continue;
      records.push({
        seq: Number(row.seq),
        operationId: row.operation_id as string,
        event: readStoredEvent(row, source),
      });
    }
    return records;
  }

  /**
   * Takes the session's run lease if no live holder has it: a new fencing
   * token, an expiry `leaseDurationMs` from now on the server's clock, renewed
   * every third of that while held. Rejects with `SessionBusyError` naming
   * the holder while its lease is live, `SessionNotFoundError` for a session never stored.
   */
  async lease(id: string): Promise<SessionLease> {
    checkSessionId(id);
    return this.#exclusive(id, async () => {
      const { rows } = await this.#connection.query({
        text: this.#statements.lease,
        values: [id, this.#leaseDurationMs, this.#holder],
      });
      const row = rows[0];
      if (row === undefined) throw await this.#leaseRefusal(id);
      this.#known.set(id, knownFromRow(id, row));
      const lease = new PostgresSessionLease(
        {
          renew: (sessionId, token) => this.#renew(sessionId, token),
          release: (sessionId, token) => this.#release(sessionId, token),
          logger: this.#logger,
        },
        id,
        row.lease_token as string,
        this.#leaseDurationMs === 0 ? 0 : Math.max(1, Math.floor(this.#leaseDurationMs / 3)),
      );
      this.#leases.add(lease);
      return lease;
    });
  }

  async #leaseRefusal(id: string): Promise<Error> {
    const { rows } = await this.#connection.query(
      { text: this.#statements.leaseHolder, values: [id] },
      { idempotent: true },
    );
    const row = rows[0];
    if (row === undefined) return new SessionNotFoundError(id, this.where);
    const until =
      row.lease_expires_at instanceof Date
        ? row.lease_expires_at.toISOString()
        : String(row.lease_expires_at);
    return new SessionBusyError(
      id,
      `${String(row.lease_holder ?? 'another process')}, lease held until ${until}`,
    );
  }

  async #renew(id: string, token: string): Promise<boolean> {
    const { rows } = await this.#connection.query({
      text: this.#statements.renew,
      values: [id, token, this.#leaseDurationMs],
    });
    return rows.length > 0;
  }

  async #release(id: string, token: string): Promise<void> {
    await this.#connection.query(
      { text: this.#statements.release, values: [id, token] },
      { idempotent: true },
    );
    for (const lease of this.#leases)
      if (lease.sessionId === id && lease.token === token) this.#leases.delete(lease);
  }

  /** Deletes the sessions not updated since `updatedBefore`, in batches, keeping any a live process runs (see `PruneOptions`). */
  async prune(options: PruneOptions): Promise<PruneResult> {
    return pruneSessions(this.#connection, this.#statements, options, (ids) => {
      for (const id of ids) this.#known.delete(id);
    });
  }

  /**
   * Stops renewing the leases still held (they lapse in `leaseDurationMs`),
   * and ends the pool if the store opened it; a pool passed in is left open.
   * Calls after it reject with `ConfigError`.
   */
  async close(): Promise<void> {
    for (const lease of this.#leases) lease.stopRenewing();
    this.#leases.clear();
    await this.#connection.close();
  }

  /** Runs `action` after every earlier write of this process to the same session, so none interleave and the summary cache stays true. */
  #exclusive<Value>(id: string, action: () => Promise<Value>): Promise<Value> {
    const previous = this.#chains.get(id) ?? Promise.resolve();
    const next = previous.then(action, action);
    const settled = next.catch(() => {});
    this.#chains.set(id, settled);
    void settled.then(() => {
      if (this.#chains.get(id) === settled) this.#chains.delete(id);
    });
    return next;
  }
}

/** A seq for SQL: whole, and within what a bigint and a JavaScript number both hold. */
function fromSeqValue(fromSeq: number): number {
  if (typeof fromSeq !== 'number' || Number.isNaN(fromSeq)) return 1;
  return Math.min(Number.MAX_SAFE_INTEGER, Math.max(1, Math.ceil(fromSeq)));
}
