import { join } from 'node:path';
import {
  checkSessionId,
  type ListSessionsOptions,
  type Logger,
  pageOfSummaries,
  parseSessionState,
  SessionConflictError,
  SessionCorruptError,
  type SessionEvent,
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
import { errorCode, storageError } from './storage-error.js';

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
}

/**
 * A `SessionStore` on the local file system: `<root>/<id>/session.json` (the
 * snapshot, replaced atomically: temp file in the same folder, fsync, rename,
 * fsync the folder) and `<root>/<id>/events.jsonl` (the append-only log, one
 * record per line, fsynced per append). Within one process, operations on a
 * session run one at a time; across processes a save is compare-and-swap
 * under the lock file `<root>/<id>/.lock`, so of two saves from one version
 * exactly one wins. Appends take no lock: give each session's log one
 * writing process at a time (a run that applies decisions claims the
 * session with a save first, so two processes deciding it give one execution).
 *
 * @example
 * const store = new FileSessionStore({ root: '/var/lib/my-agent/sessions' });
 * const manager = new SessionManager({ store, agent: () => ({ provider, model }) });
 */
export class FileSessionStore implements SessionStore {
  readonly root: string;
  readonly #logger: Logger;
  readonly #files: FileOperations;
  readonly #locks = new Map<string, Promise<unknown>>();
  readonly #logs = new Map<string, LogIndex>();
  readonly #counter = { bytesWritten: 0 };
  readonly #lock: SessionLock;

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
  }

  /** Bytes this store has written since it was made (snapshots, log lines, set-aside copies): for measuring. */
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
    this.#counter.bytesWritten += Buffer.byteLength(data);
    return { version };
  }

  async list(options: ListSessionsOptions = {}): Promise<SessionPage> {
    let names: string[];
    try {
      names = await this.#files.readdir(this.root);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return { sessions: [] };
      throw storageError(this.root, error);
    }
    const summaries: SessionSummary[] = [];
    for (const name of names) {
      if (name.startsWith('.')) continue;
      try {
        checkSessionId(name);
        summaries.push(summaryOf(await this.#load(name)));
      } catch (error) {
        if ((error as { code?: unknown }).code === 'session_not_found') continue;
        this.#logger.warn('a stored session cannot be read; it is left out of the list', {
          path: join(this.root, name),
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return pageOfSummaries(summaries, options);
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
      this.#counter.bytesWritten += Buffer.byteLength(data);
      index.lastSeq = seq;
      const seqs = { firstSeq, lastSeq: seq };
      index.operations.set(options.operationId, seqs);
      return seqs;
    });
  }

  read(id: string, options: { fromSeq?: number } = {}): Promise<SessionLogRecord[]> {
    return this.#exclusive(id, async () => {
      await this.#requireSession(id);
      const fromSeq = options.fromSeq ?? 1;
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

  async #index(id: string): Promise<LogIndex> {
    const known = this.#logs.get(id);
    if (known !== undefined) return known;
    await this.#requireSession(id);
    const { index } = await this.#readLog(id);
    this.#logs.set(id, index);
    return index;
  }

  async #readLog(id: string): Promise<{ records: SessionLogRecord[]; index: LogIndex }> {
    const path = join(this.#folder(id), 'events.jsonl');
    try {
      return await readEventsLog(path, this.#files, this.#logger, this.#counter);
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
