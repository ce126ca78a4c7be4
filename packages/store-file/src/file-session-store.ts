import { basename, join } from 'node:path';
import {
  checkSessionId,
  type ListSessionsOptions,
  type Logger,
  pageOfSummaries,
  parseSessionState,
  SessionBusyError,
  SessionConflictError,
  SessionCorruptError,
  type SessionEvent,
  type SessionLease,
  type SessionLogRecord,
  SessionNotFoundError,
  type SessionPage,
  type SessionState,
  type SessionStore,
  type SessionSummary,
  silentLogger,
  summaryOf,
} from '@agent-core/core';
import { type LogIndex, readEventsLog } from './events-log.js';
import { type FileOperations, nodeFileOperations } from './file-operations.js';
import { SessionLock } from './session-lock.js';
import { readSummaryFile, writeSummaryFile } from './session-summary-file.js';
import { errorCode, storageError } from './storage-error.js';

/** What `list` made of one folder. */
type FolderListing = { summary: SessionSummary } | { error: unknown } | undefined;

/** Session folders `list` reads at once. */
const listConcurrency = 8;

/** Options of `new FileSessionStore(...)`. */
export interface FileSessionStoreOptions {
  /** The folder that holds one folder per session; created when first needed. */
  root: string;
  /** Warnings about corrupt files go here. Default: silent. */
  logger?: Logger;
  /** The file system calls; default the real one. */
  operations?: Partial<FileOperations>;
  /**
   * How long a save waits for another process holding the session's lock
   * before it throws `SessionStorageError` (`session_storage_locked`). Default 10 000.
   */
  lockTimeoutMs?: number;
  /**
   * A run's lease (`<root>/<id>/.run`) not renewed for this long is taken for
   * a crashed holder's, even from another host. The holder renews it every
   * third of this, so a live one never gets there. Default 30 000.
   */
  leaseStaleMs?: number;
}

/**
 * A `SessionStore` on the local file system: `<root>/<id>/session.json` (the
 * snapshot, replaced atomically: temp file in the same folder, fsync, rename,
 * fsync the folder) and `<root>/<id>/events.jsonl` (the append-only log, one
 * record per line, fsynced per append). Within one process, operations on a
 * session run one at a time; across processes a save is compare-and-swap
 * under the lock file `<root>/<id>/.lock`, so of two saves from one version
 * exactly one wins.
 *
 * `lease` marks a session as run by this process with the file
 * `<root>/<id>/.run`, renewed every `leaseStaleMs / 3` while held, so core
 * runs a session in one process at a time and tells a live run from a
 * crashed one. Appends take no lock of their own: the lease is what keeps one
 * process appending at a time. Each append checks the log's length first
 * and re-reads a log another process grew, so seqs stay consecutive when
 * processes take turns.
 *
 * `list` reads `<root>/<id>/summary.json`, which each save writes after the
 * snapshot, so a listing never parses a whole history. It reads the snapshot
 * instead when the summary is missing, malformed, or was written for a
 * snapshot of another length. So a summary lags its snapshot only after a
 * crash between the two renames or a `session.json` replaced by other means,
 * when the new snapshot has the old one's length, and only until the next
 * save. `load` always reads the snapshot.
 *
 * @example
 * const store = new FileSessionStore({ root: '/var/lib/my-agent/sessions' });
 * const manager = new SessionManager({ store, agentOptions: () => ({ provider, model }) });
 */
export class FileSessionStore implements SessionStore {
  readonly root: string;
  readonly #logger: Logger;
  readonly #files: FileOperations;
  readonly #locks = new Map<string, Promise<unknown>>();
  readonly #logs = new Map<string, LogIndex>();
  readonly #counter = { bytesWritten: 0 };
  readonly #lock: SessionLock;
  readonly #leases: SessionLock;

  constructor(options: FileSessionStoreOptions) {
    if (typeof options?.root !== 'string' || options.root === '') {
      throw new TypeError('FileSessionStore needs a root folder: new FileSessionStore({ root })');
    }
    this.root = options.root;
    this.#logger = options.logger ?? silentLogger;
    this.#files = { ...nodeFileOperations, ...options.operations };
    const lockTimeoutMs = options.lockTimeoutMs ?? 10_000;
    if (!(lockTimeoutMs >= 0)) {
      throw new TypeError(`lockTimeoutMs must be a number of milliseconds >= 0, got ${lockTimeoutMs}.`);
    }
    this.#lock = new SessionLock(this.#files, {
      timeoutMs: lockTimeoutMs,
      staleMs: 30_000,
      logger: this.#logger,
    });
    const leaseStaleMs = options.leaseStaleMs ?? 30_000;
    if (!(leaseStaleMs > 0 && Number.isFinite(leaseStaleMs))) {
      throw new TypeError(`leaseStaleMs must be a finite number of milliseconds > 0, got ${leaseStaleMs}.`);
    }
    // A run lease does not wait: core reports a busy session rather than queueing a run behind another process.
    this.#leases = new SessionLock(this.#files, {
      file: '.run',
      label: 'session lease',
      timeoutMs: 0,
      staleMs: leaseStaleMs,
      heartbeat: true,
      busy: (holder, folder) => new SessionBusyError(basename(folder), holder),
      logger: this.#logger,
    });
  }

  /** Bytes this store has written since it was made (snapshots, summaries, log lines, set-aside copies): for measuring. */
  get bytesWritten(): number {
    return this.#counter.bytesWritten;
  }

  load(id: string): Promise<SessionState> {
    return this.#exclusive(id, () => this.#load(id));
  }

  save(state: SessionState, options: { expectedVersion: number }): Promise<{ version: number }> {
    return this.#exclusive(state.id, () => {
      const folder = this.#folder(state.id);
      // Only a new session's save creates its folder: a stale save of a missing one leaves nothing behind.
      const missing =
        options.expectedVersion === 0
          ? undefined
          : () => Promise.reject(new SessionConflictError(state.id, options.expectedVersion, undefined));
      // The version check and the rename happen under the session's lock file, so they are one step for every process.
      return this.#lock.run(folder, () => this.#save(folder, state, options), missing);
    });
  }

  async #save(
    folder: string,
    state: SessionState,
    options: { expectedVersion: number },
  ): Promise<{ version: number }> {
    const path = join(folder, 'session.json');
    const actual = await this.#storedVersion(state.id, path);
    if ((actual ?? 0) !== options.expectedVersion) {
      throw new SessionConflictError(state.id, options.expectedVersion, actual);
    }
    const version = options.expectedVersion + 1;
    const data = JSON.stringify({ ...state, version });
    const temporary = join(folder, `.session.json.${globalThis.crypto.randomUUID()}.tmp`);
    try {
      await this.#files.writeNew(temporary, data);
      await this.#files.rename(temporary, path);
      await this.#files.syncDirectory(folder);
    } catch (error) {
      await this.#files.unlink(temporary).catch(() => {});
      throw storageError(path, error);
    }
    const snapshotBytes = Buffer.byteLength(data);
    this.#counter.bytesWritten += snapshotBytes;
    // After the snapshot, never before: a crash between the two leaves a summary of a version that was stored.
    const summary = { ...summaryOf(state), version };
    this.#counter.bytesWritten += await writeSummaryFile(
      this.#files,
      folder,
      summary,
      snapshotBytes,
      this.#logger,
    );
    return { version };
  }

  /**
   * Takes the run lease of a stored session: `<root>/<id>/.run`, created with
   * O_EXCL and renewed while held. Rejects with `SessionBusyError` naming the
   * holder while a live process has it; one that stopped is broken and taken
   * (its pid is gone on this host, it lapsed past `leaseStaleMs`, or it stayed
   * unreadable for a second). Rejects with `SessionNotFoundError`, creating
   * nothing, for a session never stored. It restricts only `lease`: `load`,
   * `save`, `append` and `read` work as before, from any process.
   */
  lease(id: string): Promise<SessionLease> {
    return this.#exclusive(id, async () => {
      const folder = this.#folder(id);
      await this.#requireSession(id);
      // Never creates the folder: a lease of a session deleted meanwhile finds none.
      const held = await this.#leases.acquire(folder, { createFolder: false });
      if (held === undefined) throw new SessionNotFoundError(id, this.root);
      return held;
    });
  }

  /** Reads each session's `summary.json`, or its snapshot when there is no summary to trust; newest first. */
  async list(options: ListSessionsOptions = {}): Promise<SessionPage> {
    let names: string[];
    try {
      names = await this.#files.readdir(this.root);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return { sessions: [] };
      throw storageError(this.root, error);
    }
    // Sorted, and warned about in that order once all are read: the log reads the same on every run.
    names.sort();
    const read: FolderListing[] = new Array(names.length);
    let next = 0;
    // A few folders at a time: their reads overlap, and a root of thousands never has thousands of files open.
    const worker = async (): Promise<void> => {
      while (next < names.length) {
        const index = next++;
        read[index] = await this.#summaryOf(names[index] as string);
      }
    };
    await Promise.all(Array.from({ length: Math.min(listConcurrency, names.length) }, worker));
    const summaries: SessionSummary[] = [];
    for (const [index, listing] of read.entries()) {
      if (listing === undefined) continue;
      if ('summary' in listing) {
        summaries.push(listing.summary);
        continue;
      }
      this.#logger.warn('a stored session cannot be read; it is left out of the list', {
        path: join(this.root, names[index] as string),
        error: listing.error instanceof Error ? listing.error.message : String(listing.error),
      });
    }
    return pageOfSummaries(summaries, options);
  }

  /** A folder's summary for `list`, the error that kept it from being read, or undefined for what is not a session. */
  async #summaryOf(name: string): Promise<FolderListing> {
    if (name.startsWith('.')) return undefined;
    try {
      checkSessionId(name);
      return {
        summary:
          (await readSummaryFile(this.#files, join(this.root, name), name)) ??
          summaryOf(await this.#load(name)),
      };
    } catch (error) {
      if ((error as { code?: unknown }).code === 'session_not_found') return undefined;
      return { error };
    }
  }

  delete(id: string): Promise<boolean> {
    return this.#exclusive(id, async () => {
      const folder = this.#folder(id);
      const aside = join(this.root, `.deleted-${id}-${globalThis.crypto.randomUUID()}`);
      this.#logs.delete(id);
      try {
        await this.#files.rename(folder, aside);
      } catch (error) {
        if (errorCode(error) === 'ENOENT') return false;
        throw storageError(folder, error);
      }
      await this.#files.removeTree(aside).catch((error: unknown) => {
        this.#logger.warn('a deleted session folder could not be removed', {
          path: aside,
          error: String(error),
        });
      });
      return true;
    });
  }

  append(
    id: string,
    entries: readonly SessionEvent[],
    options: { operationId: string },
  ): Promise<{ firstSeq: number; lastSeq: number }> {
    return this.#exclusive(id, async () => {
      const index = await this.#index(id);
      const done = index.operations.get(options.operationId);
      if (done !== undefined) return done;
      const firstSeq = index.lastSeq + 1;
      let data = '';
      let seq = index.lastSeq;
      for (const event of entries) {
        const record: SessionLogRecord = { seq: ++seq, operationId: options.operationId, event };
        data += `${JSON.stringify(record)}\n`;
      }
      const path = join(this.#folder(id), 'events.jsonl');
      try {
        await this.#files.append(path, data);
      } catch (error) {
        // The file may now end in a torn line: the next read sets it aside.
        this.#logs.delete(id);
        throw storageError(path, error);
      }
      const length = Buffer.byteLength(data);
      this.#counter.bytesWritten += length;
      index.bytes += length;
      index.lastSeq = seq;
      const seqs = { firstSeq, lastSeq: seq };
      index.operations.set(options.operationId, seqs);
      return seqs;
    });
  }

  read(id: string, options: { fromSeq?: number } = {}): Promise<SessionLogRecord[]> {
    return this.#exclusive(id, async () => {
      const fromSeq = options.fromSeq ?? 1;
      const known = this.#logs.get(id);
      // Past the end of a log no process grew since: a stat answers, not a read (core asks this at every run start).
      if (known !== undefined && fromSeq > known.lastSeq && (await this.#logSize(id)) === known.bytes)
        return [];
      await this.#requireSession(id);
      const { records, index } = await this.#readLog(id);
      this.#logs.set(id, index);
      return records.filter((record) => record.seq >= fromSeq);
    });
  }

  async #load(id: string): Promise<SessionState> {
    const path = join(this.#folder(id), 'session.json');
    const text = await this.#readSnapshot(id, path);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new SessionCorruptError(
        path,
        `not valid JSON (${(error as Error).message}). Restore it from a backup or delete the session.`,
        {
          cause: error,
        },
      );
    }
    return parseSessionState(raw, { source: path });
  }

  async #readSnapshot(id: string, path: string): Promise<string> {
    try {
      return (await this.#files.readFile(path)).toString('utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') throw new SessionNotFoundError(id, this.root);
      throw storageError(path, error);
    }
  }

  /** The stored version, read straight from the snapshot's JSON; undefined when none is stored. */
  async #storedVersion(id: string, path: string): Promise<number | undefined> {
    let text: string;
    try {
      text = await this.#readSnapshot(id, path);
    } catch (error) {
      if ((error as { code?: unknown }).code === 'session_not_found') return undefined;
      throw error;
    }
    try {
      const version = (JSON.parse(text) as { version?: unknown }).version;
      if (typeof version === 'number') return version;
    } catch {}
    throw new SessionCorruptError(
      path,
      'its version cannot be read, so it is not overwritten. Restore or delete it first.',
      {
        field: 'version',
      },
    );
  }

  async #requireSession(id: string): Promise<void> {
    if (this.#logs.has(id)) return;
    await this.#readSnapshot(id, join(this.#folder(id), 'session.json'));
  }

  /** The log's index, read again when the file's length is not the one it knows: another process appended since. */
  async #index(id: string): Promise<LogIndex> {
    const known = this.#logs.get(id);
    if (known !== undefined && (await this.#logSize(id)) === known.bytes) return known;
    if (known === undefined) await this.#requireSession(id);
    const { index } = await this.#readLog(id);
    this.#logs.set(id, index);
    return index;
  }

  async #logSize(id: string): Promise<number> {
    const path = join(this.#folder(id), 'events.jsonl');
    try {
      return await this.#files.size(path);
    } catch (error) {
      throw storageError(path, error);
    }
  }

  async #readLog(id: string): Promise<{ records: SessionLogRecord[]; index: LogIndex }> {
    const folder = this.#folder(id);
    const path = join(folder, 'events.jsonl');
    try {
      // A torn last line is cut only when no other live process runs the session: it may be that process's append in progress.
      return await readEventsLog(
        path,
        this.#files,
        this.#logger,
        this.#counter,
        async () => !(await this.#leases.heldElsewhere(folder)),
      );
    } catch (error) {
      throw storageError(path, error);
    }
  }

  #folder(id: string): string {
    checkSessionId(id);
    return join(this.root, id);
  }

  /** Runs `action` after every earlier operation on the same session, so none interleave. */
  #exclusive<Value>(id: string, action: () => Promise<Value>): Promise<Value> {
    const previous = this.#locks.get(id) ?? Promise.resolve();
    const next = previous.then(action, action);
    const settled = next.catch(() => {});
    this.#locks.set(id, settled);
    void settled.then(() => {
      if (this.#locks.get(id) === settled) this.#locks.delete(id);
    });
    return next;
  }
}
