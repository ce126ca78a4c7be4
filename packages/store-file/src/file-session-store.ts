import { join } from 'node:path';
import {
  AgentError,
  type AppendSessionOptions,
  checkAppendOptions,
  checkSaveOptions,
  checkSessionEvents,
  checkSessionId,
  checkSessionState,
  InvalidSessionStateError,
  type ListSessionsOptions,
  type SaveSessionOptions,
  SessionConflictError,
  type SessionEvent,
  type SessionLease,
  type SessionLogRecord,
  SessionNotFoundError,
  type SessionPage,
  type SessionState,
  type SessionStore,
} from '@agent-core/core';
import { missingRecordsError } from './events-log.js';
import { checkLease, leaseHandle } from './lease-fence.js';
import { eventProblem } from './log-lines.js';
import { listSessions } from './session-listing.js';
import { repairSession, type SessionRepairReport } from './session-repair.js';
import { logFileName, SessionTracker } from './session-tracker.js';
import {
  parseSnapshot,
  readSnapshot,
  snapshotFacts,
  snapshotFileName,
  refuseOrphanLog,
  storedVersion,
  writeSnapshot,
} from './snapshot-file.js';
import { errorCode, storageError } from './storage-error.js';
import { type FileSessionStoreOptions, type StoreParts, storeParts } from './store-options.js';
import { trackSession } from './tracked-session.js';

export type { FileSessionStoreOptions } from './store-options.js';

/**
 * A `SessionStore` on the local file system, one folder per session:
 * `session.json` (the snapshot, replaced atomically; a save is
 * compare-and-swap across processes under the lock file `.lock`),
 * `events.jsonl` (the append-only log, fsynced per append, checked line by
 * line on every read), `summary.json` (what `list` reads) and `.run` (the run
 * lease, renewed while held; a write made under a lease another process took
 * over is refused with `SessionLeaseLostError`). Within one process,
 * operations on a session run one at a time. `repair` cuts a damaged session
 * back to its last consistent point, keeping a backup.
 *
 * @example
 * const store = new FileSessionStore({ root: '/var/lib/my-agent/sessions' });
 * const manager = new SessionManager({ store, agentOptions: () => ({ provider, model }) });
 */
export class FileSessionStore implements SessionStore {
  readonly root: string;
  readonly #parts: StoreParts;
  readonly #queues = new Map<string, Promise<unknown>>();
  readonly #counter = { bytesWritten: 0 };
  readonly #tracker: SessionTracker;

  constructor(options: FileSessionStoreOptions) {
    this.#parts = storeParts(options);
    this.root = options.root;
    const { files, logger, leases } = this.#parts;
    this.#tracker = new SessionTracker({
      root: this.root,
      files,
      logger,
      counter: this.#counter,
      heldElsewhere: (folder) => leases.heldElsewhere(folder),
    });
  }

  /** Bytes this store has written since it was made (snapshots, summaries, log lines, set-aside copies, backups): for measuring. */
  get bytesWritten(): number {
    return this.#counter.bytesWritten;
  }

  load(id: string): Promise<SessionState> {
    return this.#exclusive(id, async () => {
      const folder = this.#folder(id);
      const bytes = await readSnapshot(this.#parts.files, folder, id, this.root);
      const state = await parseSnapshot(bytes, join(folder, snapshotFileName));
      this.#tracker.loaded(id, state, bytes.length);
      return state;
    });
  }

  /**
   * Checks `state` first (`InvalidSessionStateError`, nothing written); then,
   * under the session's `.lock`: the lease when one is passed, the version,
   * the snapshot, and its summary.
   */
  async save(state: SessionState, options: SaveSessionOptions): Promise<{ version: number }> {
    checkSessionId(state?.id);
    checkSaveOptions(options);
    await checkSessionState(state);
    return this.#exclusive(state.id, () => {
      const folder = this.#folder(state.id);
      // Only a new session's save creates its folder: a stale save of a missing one leaves nothing behind.
      const missing =
        options.expectedVersion === 0
          ? undefined
          : () => Promise.reject(new SessionConflictError(state.id, options.expectedVersion, undefined));
      return this.#parts.lock.run(folder, () => this.#save(folder, state, options), missing);
    });
  }

  async #save(
    folder: string,
    state: SessionState,
    options: SaveSessionOptions,
  ): Promise<{ version: number }> {
    await checkLease(options.lease, state.id, folder);
    const actual = await storedVersion(this.#parts.files, folder);
    if ((actual ?? 0) !== options.expectedVersion) {
      throw new SessionConflictError(state.id, options.expectedVersion, actual);
    }
    // A new session must not take over the log of one whose snapshot was lost.
    if (actual === undefined) await refuseOrphanLog(this.#parts.files, folder);
    // A snapshot that says it includes records the log does not hold would make every later append vanish on load.
    if (state.lastSeq > 0) {
      const end = await this.#tracker.logEnd(state.id, folder);
      if (state.lastSeq > end)
        throw new InvalidSessionStateError(
          state.id,
          `lastSeq ${state.lastSeq} is past the end of the session's events log (seq ${end}), so a load would find records missing. Save the lastSeq the store's appends returned (0 for a session brought from elsewhere without its log).`,
          'lastSeq',
        );
    }
    const stored = { ...state, version: options.expectedVersion + 1 };
    const bytes = await writeSnapshot(this.#parts.files, folder, JSON.stringify(stored));
    this.#counter.bytesWritten += bytes;
    await this.#tracker.saved(folder, stored, bytes);
    return { version: stored.version };
  }

  /**
   * Takes the run lease of a stored session: `<root>/<id>/.run`, created with
   * O_EXCL and renewed while held. Rejects with `SessionBusyError` naming the
   * holder while a live process has it; one that stopped is broken and taken
   * (its pid is gone on this host, it lapsed past `leaseStaleMs`, or it stayed
   * unreadable for a second). Rejects with `SessionNotFoundError`, creating
   * nothing, for a session never stored; a damaged or missing snapshot does not
   * stop it. Writes that pass the lease check it first.
   */
  lease(id: string): Promise<SessionLease> {
    return this.#exclusive(id, async () => {
      const folder = this.#folder(id);
      // A session whose snapshot is damaged or lost can still be leased: to be repaired or removed.
      if (this.#tracker.get(id) === undefined)
        await readSnapshot(this.#parts.files, folder, id, this.root).catch((error: unknown) => {
          if (!AgentError.isInstance(error) || error.code !== 'session_corrupt') throw error;
        });
      // Never creates the folder: a lease of a session deleted meanwhile finds none.
      const held = await this.#parts.leases.acquire(folder, { createFolder: false });
      if (held === undefined) throw new SessionNotFoundError(id, this.root);
      return leaseHandle(id, folder, held);
    });
  }

  /** Newest first, from each session's summary; a session whose run's holder stopped is listed `interrupted`. */
  list(options: ListSessionsOptions = {}): Promise<SessionPage> {
    const { files, logger, leases } = this.#parts;
    return listSessions(
      {
        root: this.root,
        files,
        logger,
        tracked: (id) => this.#tracker.get(id),
        lease: (folder) => leases.inspect(folder),
      },
      options,
    );
  }

  delete(id: string): Promise<boolean> {
    return this.#exclusive(id, async () => {
      const folder = this.#folder(id);
      const aside = join(this.root, `.deleted-${id}-${globalThis.crypto.randomUUID()}`);
      this.#tracker.forget(id);
      try {
        await this.#parts.files.rename(folder, aside);
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return false;
        throw storageError(folder, error);
      }
      await this.#parts.files.removeTree(aside).catch((error: unknown) => {
        this.#parts.logger.warn('a deleted session folder could not be removed', {
          path: aside,
          error: String(error),
        });
      });
      return true;
    });
  }

  /**
   * Appends with consecutive seqs, fsynced. Checks the entries first
   * (`checkSessionEvents`, then what a replay reads: `InvalidSessionStateError`,
   * a line a read would refuse is never written), refuses to number behind a snapshot that includes more
   * (`SessionCorruptError`), then checks the lease when one is passed.
   */
  append(
    id: string,
    entries: readonly SessionEvent[],
    options: AppendSessionOptions,
  ): Promise<{ firstSeq: number; lastSeq: number }> {
    return this.#exclusive(id, async () => {
      const folder = this.#folder(id);
      checkAppendOptions(options);
      checkSessionEvents(id, entries);
      for (const [index, entry] of entries.entries()) {
        const problem = eventProblem(entry);
        if (problem !== undefined)
          throw new InvalidSessionStateError(
            id,
            `log entry ${index} cannot be appended: ${problem}.`,
            `entries.${index}`,
          );
      }
      const tracked = await this.#tracker.current(id, folder);
      const path = join(folder, logFileName);
      const index = tracked.log;
      if (index.lastSeq < tracked.snapshot.lastSeq)
        throw missingRecordsError(path, id, index.lastSeq, tracked.snapshot.lastSeq);
      // The lease is checked last before the write, so a takeover until then is seen.
      await checkLease(options.lease, id, folder);
      const done = index.operations.get(options.operationId);
      if (done !== undefined) return done;
      const firstSeq = index.lastSeq + 1;
      let data = '';
      let seq = index.lastSeq;
      for (const event of entries) {
        const record: SessionLogRecord = { seq: ++seq, operationId: options.operationId, event };
        data += `${JSON.stringify(record)}\n`;
      }
      try {
        await this.#parts.files.append(path, data);
      } catch (error) {
        // The file may now end in a torn line: the next read sets it aside.
        this.#tracker.forget(id);
        throw storageError(path, error);
      }
      const length = Buffer.byteLength(data);
      this.#counter.bytesWritten += length;
      index.bytes += length;
      index.lastSeq = seq;
      const seqs = { firstSeq, lastSeq: seq };
      index.operations.set(options.operationId, seqs);
      await this.#tracker.appended(folder, tracked, entries);
      return seqs;
    });
  }

  read(id: string, options: { fromSeq?: number } = {}): Promise<SessionLogRecord[]> {
    return this.#exclusive(id, async () => {
      const folder = this.#folder(id);
      const fromSeq = options.fromSeq ?? 1;
      const known = this.#tracker.get(id);
      // Past the end of a log no process grew since: a stat answers, not a read (core asks this at every run start).
      if (
        known !== undefined &&
        fromSeq > known.log.lastSeq &&
        (await this.#tracker.logSize(folder)) === known.log.bytes
      ) {
        if (known.log.lastSeq < known.snapshot.lastSeq)
          throw missingRecordsError(join(folder, logFileName), id, known.log.lastSeq, known.snapshot.lastSeq);
        return [];
      }
      const { records } = await this.#tracker.rebuild(id, folder);
      return records.filter((record) => record.seq >= fromSeq);
    });
  }

  /**
   * Cuts a damaged session back to its last consistent point, so it loads
   * and runs again; `SessionRepairReport` tells what it found and did. Holds
   * the session's run lease meanwhile (`SessionBusyError` while a live
   * process runs it) and copies `session.json` and `events.jsonl` into a new
   * `<root>/<id>/repair-<time>/` before it changes anything. A snapshot that
   * cannot be parsed or is missing is `SessionCorruptError`: restore it from a backup.
   */
  async repair(id: string): Promise<SessionRepairReport> {
    const lease = await this.lease(id);
    try {
      return await this.#exclusive(id, () => {
        const folder = this.#folder(id);
        return repairSession(id, {
          root: this.root,
          folder,
          files: this.#parts.files,
          counter: this.#counter,
          save: async (state) => {
            const save = () => this.#save(folder, state, { expectedVersion: state.version, lease });
            await this.#parts.lock.run(folder, save);
          },
          writeSummary: (state, snapshotBytes, log, records) =>
            this.#tracker.track(folder, id, trackSession(snapshotFacts(state, snapshotBytes), log, records)),
          forget: () => this.#tracker.forget(id),
        });
      });
    } finally {
      await lease.release();
    }
  }

  #folder(id: string): string {
    checkSessionId(id);
    return join(this.root, id);
  }

  /** Runs `action` after every earlier operation on the same session, so none interleave. */
  #exclusive<Value>(id: string, action: () => Promise<Value>): Promise<Value> {
    const previous = this.#queues.get(id) ?? Promise.resolve();
    const next = previous.then(action, action);
    const settled = next.catch(() => {});
    this.#queues.set(id, settled);
    void settled.then(() => {
      if (this.#queues.get(id) === settled) this.#queues.delete(id);
    });
    return next;
  }
}
