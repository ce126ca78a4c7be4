import type { SessionEvent, SessionLogRecord } from './session-event.js';
import type { SessionState } from './session-state.js';
import type { SessionSummary } from './session-summary.js';

/** One page of `list`; pass `nextCursor` back to get the next, absent on the last page. */
export interface SessionPage {
  sessions: SessionSummary[];
  nextCursor?: string;
}

/** Options of `SessionStore.list`. */
export interface ListSessionsOptions {
  /** From a previous page's `nextCursor`. */
  cursor?: string;
  /** Sessions per page. Default 50. */
  limit?: number;
}

/** Options of `SessionStore.save`. */
export interface SaveSessionOptions {
  /** The version the caller loaded or last saved; 0 creates the session. */
  expectedVersion: number;
  /** The run lease the caller holds, if any: a store refuses the save once it is lost (`SessionLeaseLostError`). */
  lease?: SessionLease;
}

/** Options of `SessionStore.append`. */
export interface AppendSessionOptions {
  /** Names the append, so a retry of it appends nothing more. */
  operationId: string;
  /** The run lease the caller holds, if any: a store refuses the append once it is lost (`SessionLeaseLostError`). */
  lease?: SessionLease;
}

/**
 * Where sessions live: a snapshot per session plus an append-only events log.
 *
 * Contract:
 * - Ids are checked with `checkSessionId`; a bad one throws `InvalidSessionIdError`.
 * - `load` returns a fresh object the caller may change; an id never stored
 *   throws `SessionNotFoundError`, unreadable data `SessionCorruptError`
 *   (stores read with `parseSessionState`, which also refuses values nested
 *   past the depth limits, before anything copies them).
 * - The options of `save` and `append` are checked with `checkSaveOptions`
 *   and `checkAppendOptions`, and `list`'s `limit` and `cursor` as
 *   `pageOfSummaries` does: a value that could not mean anything throws
 *   `ConfigError` naming it, and nothing is written.
 * - `save(state, { expectedVersion })` first checks the state with
 *   `checkSessionState` (the schema `load` reads with): a state that could not
 *   be read back throws `InvalidSessionStateError` and nothing is written. It
 *   writes only if the stored version is `expectedVersion` (0: the session
 *   must not exist yet), stores it as `expectedVersion + 1` and returns that;
 *   otherwise it throws `SessionConflictError` and writes nothing. A save is all or nothing.
 * - `list` gives `SessionSummary`s, newest `updatedAt` first (ties by id, in
 *   code unit order), paginated by an opaque cursor; a session that cannot be
 *   read is skipped, never fatal. A summary follows every save (`summaryOf`)
 *   and every append (`advanceSummary`) without replaying the log, so status,
 *   time, message count, title and approvals waiting are current once the
 *   save or append resolves. A store with leases lists a running session whose
 *   run no live process holds the lease of (its holder stopped, its lease
 *   lapsed, or none was held) as `interrupted`, not `running`.
 * - `append` first checks the entries with `checkSessionEvents` (a part
 *   nested too deep throws `InvalidSessionStateError` and nothing is
 *   written), then adds them to a stored session's log with consecutive `seq`s
 *   and is durable when it resolves; the same `operationId` again appends
 *   nothing and returns the first append's seqs. Appends from one process
 *   never interleave. Across processes, a store with leases is written under
 *   the session's lease: every writer in core holds it (a run, a repair, a
 *   deletion) and passes it as `lease`, and a write whose lease was lost
 *   (another process took the session over after it lapsed) throws
 *   `SessionLeaseLostError` and writes nothing, even once the new holder released it.
 * - `read` returns the log records with `seq >= fromSeq`, in order.
 * - `delete` removes the snapshot and the log; it resolves `false` if there was nothing.
 * - Failures of the medium throw `SessionStorageError` (its `retryable` says
 *   whether trying again may succeed); what was stored before stays.
 * - `lease` is optional, for stores that several processes share (see below).
 */
export interface SessionStore {
  load(id: string): Promise<SessionState>;
  save(state: SessionState, options: SaveSessionOptions): Promise<{ version: number }>;
  list(options?: ListSessionsOptions): Promise<SessionPage>;
  delete(id: string): Promise<boolean>;
  append(
    id: string,
    entries: readonly SessionEvent[],
    options: AppendSessionOptions,
  ): Promise<{ firstSeq: number; lastSeq: number }>;
  read(id: string, options?: { fromSeq?: number }): Promise<SessionLogRecord[]>;
  /**
   * Marks the session as run by this process until `release()`, so no other
   * process runs it at the same time or takes its run for a crashed one.
   * Rejects with `SessionBusyError` while a live holder has it; a holder that
   * stopped (a crash) must not hold it for long, and how the store tells is
   * its own (a dead pid, a lapsed heartbeat, a lapsed expiry). Once it is
   * taken over, the old holder's writes that pass it as `lease` are refused
   * (`SessionLeaseLostError`): a holder that was frozen past its lease (a
   * stopped process, a suspended laptop) finds out before its next write.
   * Writes without `lease` and `load` and `read` are not restricted.
   * An id never stored rejects with `SessionNotFoundError`. Optional: a store that one process owns (`MemorySessionStore`) leaves it out.
   */
  lease?(id: string): Promise<SessionLease>;
}

/** A session's run lease from `SessionStore.lease`. */
export interface SessionLease {
  /** Gives the lease back; resolves once another process can take it. Calling it again does nothing. */
  release(): Promise<void>;
}
