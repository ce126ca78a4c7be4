import type { SessionEvent, SessionLogRecord } from './session-event.js';
import type { SessionState, SessionStatus } from './session-state.js';

/** What `list` tells about a session without its history. */
export interface SessionSummary {
  id: string;
  status: SessionStatus;
  createdAt: string;
  updatedAt: string;
  version: number;
  metadata: Record<string, unknown>;
}

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

/**
 * Where sessions live: a snapshot per session plus an append-only events log.
 *
 * Contract:
 * - Ids are checked with `checkSessionId`; a bad one throws `InvalidSessionIdError`.
 * - `load` returns a fresh object the caller may change; an id never stored
 *   throws `SessionNotFoundError`, unreadable data `SessionCorruptError`.
 * - `save(state, { expectedVersion })` writes only if the stored version is
 *   `expectedVersion` (0: the session must not exist yet), stores it as
 *   `expectedVersion + 1` and returns that; otherwise it throws
 *   `SessionConflictError` and writes nothing. A save is all or nothing.
 * - `list` is newest `updatedAt` first (ties by id), paginated by an opaque
 *   cursor; a session that cannot be read is skipped, never fatal.
 * - `append` adds entries to a stored session's log with consecutive `seq`s
 *   and is durable when it resolves; the same `operationId` again appends
 *   nothing and returns the first append's seqs. Concurrent appends never interleave.
 * - `read` returns the log records with `seq >= fromSeq`, in order.
 * - `delete` removes the snapshot and the log; it resolves `false` if there was nothing.
 * - Failures of the medium throw `SessionStorageError`; what was stored before stays.
 * - `lease` is optional, for stores that several processes share (see below).
 */
export interface SessionStore {
  load(id: string): Promise<SessionState>;
  save(state: SessionState, options: { expectedVersion: number }): Promise<{ version: number }>;
  list(options?: ListSessionsOptions): Promise<SessionPage>;
  delete(id: string): Promise<boolean>;
  append(
    id: string,
    entries: readonly SessionEvent[],
    options: { operationId: string },
  ): Promise<{ firstSeq: number; lastSeq: number }>;
  read(id: string, options?: { fromSeq?: number }): Promise<SessionLogRecord[]>;
  /**
   * Marks the session as run by this process until `release()`, so no other
   * process runs it at the same time or takes its run for a crashed one.
   * Rejects with `SessionBusyError` while a live holder has it; a holder that
   * stopped (a crash) must not hold it for long, and how the store tells is
   * its own (a dead pid, a lapsed heartbeat, a closed connection). A lease
   * restricts only `lease`: `load`, `save`, `append` and `read` work as before.
   * An id never stored rejects with `SessionNotFoundError`. Optional: a store that one process owns (`MemorySessionStore`) leaves it out.
   */
  lease?(id: string): Promise<SessionLease>;
}

/** A session's run lease from `SessionStore.lease`. */
export interface SessionLease {
  /** Gives the lease back; resolves once another process can take it. Calling it again does nothing. */
  release(): Promise<void>;
}
