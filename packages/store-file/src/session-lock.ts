import { hostname } from 'node:os';
import { join } from 'node:path';
import { type Logger, SessionStorageError } from '@agent-core/core';
import type { FileOperations } from './file-operations.js';
import { errorCode, storageError } from './storage-error.js';

/** Options of `SessionLock`. */
export interface SessionLockOptions {
  /** How long to wait for another holder before giving up. */
  timeoutMs: number;
  /** A lock older than this is broken, whoever holds it. */
  staleMs: number;
  logger: Logger;
}

/** What a lock file holds: who took it, and when. */
interface LockHolder {
  pid: number;
  host: string;
  at: string;
}

/** A holder that wrote its lock file leaves it readable within microseconds; one still unreadable this long stopped between create and write. */
const unreadableGraceMs = 1000;
const firstDelayMs = 2;
const maxDelayMs = 50;

/**
 * A lock per session folder, across processes: the file `<folder>/.lock`,
 * created with O_EXCL and holding `{"pid","host","at"}`, removed when the
 * action ends. A contender retries with a growing backoff up to `timeoutMs`,
 * then throws `SessionStorageError` (`locked`). A lock whose holder is gone
 * (its pid is not alive on this host) or older than `staleMs` is broken.
 */
export class SessionLock {
  readonly #files: FileOperations;
  readonly #options: SessionLockOptions;
  readonly #host = hostname();

  constructor(files: FileOperations, options: SessionLockOptions) {
    this.#files = files;
    this.#options = options;
  }

  /**
   * Runs `action` while this process holds the lock of `folder`. A missing
   * folder is created, or, when `missing` is given, `missing()` is returned instead.
   */
  async run<Value>(
    folder: string,
    action: () => Promise<Value>,
    missing?: () => Promise<Value>,
  ): Promise<Value> {
    const path = join(folder, '.lock');
    const mine = await this.#acquire(folder, path, missing !== undefined);
    if (mine === undefined) return (missing as () => Promise<Value>)();
    try {
      return await action();
    } finally {
      await this.#release(path, mine);
    }
  }

  /** The lock file's text as written, or undefined when the folder is missing and `stopIfMissing`. */
  async #acquire(folder: string, path: string, stopIfMissing: boolean): Promise<string | undefined> {
    const files = this.#files;
    const deadline = Date.now() + this.#options.timeoutMs;
    let delay = firstDelayMs;
    let unreadableSince: number | undefined;
    let madeFolder = false;
    for (;;) {
      const mine = JSON.stringify({ pid: process.pid, host: this.#host, at: new Date().toISOString() });
      try {
        await files.createExclusive(path, mine);
        return mine;
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' && stopIfMissing) return undefined;
        if (code === 'ENOENT' && !madeFolder) {
          // A new session: the lock lives in its folder, so the folder comes first (mkdir is idempotent).
          await this.#mkdir(folder);
          madeFolder = true;
          continue;
        }
        if (code !== 'EEXIST') throw storageError(path, error);
      }
      const seen = await this.#read(path);
      if (seen === undefined) continue;
      const holder = parseHolder(seen);
      if (holder === undefined) unreadableSince ??= Date.now();
      else unreadableSince = undefined;
      if (
        holder === undefined
          ? Date.now() - (unreadableSince as number) > unreadableGraceMs
          : this.#isStale(holder)
      ) {
        await this.#breakStale(folder, path, seen);
        continue;
      }
      if (Date.now() >= deadline) {
        const who =
          holder === undefined
            ? 'a process whose lock file cannot be read'
            : `process ${holder.pid} on ${holder.host} (since ${holder.at})`;
        throw new SessionStorageError(
          path,
          'locked',
          `${who} held this session's lock for more than lockTimeoutMs (${this.#options.timeoutMs} ms)`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
      delay = Math.min(delay * 2, maxDelayMs);
    }
  }

  #isStale(holder: LockHolder): boolean {
    const age = Date.now() - Date.parse(holder.at);
    if (!(age <= this.#options.staleMs)) return true;
    if (holder.host !== this.#host) return false;
    try {
      process.kill(holder.pid, 0);
      return false;
    } catch (error) {
      // EPERM: alive, owned by another user.
      return errorCode(error) === 'ESRCH';
    }
  }

  /**
   * Moves a stale lock aside (a rename, so only one contender takes it) and
   * deletes it. A tiny race remains: another contender may break the same
   * stale lock and take a fresh one between our read and our rename; the
   * rename then takes that fresh lock, which is put back when we see it.
   */
  async #breakStale(folder: string, path: string, seen: string): Promise<void> {
    const aside = join(folder, `.lock.stale-${globalThis.crypto.randomUUID()}`);
    try {
      await this.#files.rename(path, aside);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return;
      throw storageError(path, error);
    }
    const taken = await this.#read(aside);
    if (taken !== undefined && taken !== seen) {
      await this.#files.createExclusive(path, taken).catch(() => {
        this.#options.logger.warn('a live session lock was moved aside and could not be put back', {
          path,
        });
      });
    } else {
      this.#options.logger.warn('a stale session lock was broken', { path, holder: seen });
    }
    await this.#files.unlink(aside).catch(() => {});
  }

  async #release(path: string, mine: string): Promise<void> {
    // A lock broken as stale while this process held it now belongs to someone else: leave theirs.
    if ((await this.#read(path).catch(() => undefined)) !== mine) return;
    await this.#files.unlink(path).catch((error: unknown) => {
      this.#options.logger.warn('a session lock could not be removed', { path, error: String(error) });
    });
  }

  /** The lock file's text, or undefined when it is gone. */
  async #read(path: string): Promise<string | undefined> {
    try {
      return (await this.#files.readFile(path)).toString('utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return undefined;
      throw storageError(path, error);
    }
  }

  async #mkdir(folder: string): Promise<void> {
    try {
      await this.#files.mkdir(folder);
    } catch (error) {
      throw storageError(folder, error);
    }
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.at === 'string')
      return value as LockHolder;
  } catch {}
  return undefined;
}
