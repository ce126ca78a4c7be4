import { hostname } from 'node:os';
import { join } from 'node:path';
import { type Logger, SessionStorageError } from '@agent-core/core';
import type { FileOperations } from './file-operations.js';
import { errorCode, storageError } from './storage-error.js';

/** Options of `SessionLock`. */
export interface SessionLockOptions {
  /** The lock file's name in the session folder. Default `.lock`. */
  file?: string;
  /** What warnings call the file. Default `session lock`. */
  label?: string;
  /** How long to wait for another holder before giving up; 0 tries once. */
  timeoutMs: number;
  /** A lock older than this is broken, whoever holds it. */
  staleMs: number;
  /**
   * Rewrites the held file with a fresh `at` every `staleMs / 3`, so a holder
   * may keep it for longer than `staleMs` and still lose it soon after it stops.
   */
  heartbeat?: boolean;
  /**
   * The error thrown when a live holder still has the lock once `timeoutMs`
   * is over. `holder` describes it: `process <pid> on <host> (since <at>)`.
   * Default: `SessionStorageError` (`locked`) naming the lock file.
   */
  busy?: (holder: string, folder: string) => Error;
  logger: Logger;
}

/** A lock this process holds, from `SessionLock.acquire`. */
export interface HeldLock {
  /**
   * Stops the heartbeat and removes the file if it still holds this holder's
   * token (one broken as stale now belongs to someone else). Calling it again does nothing.
   */
  release(): Promise<void>;
}

/** What a lock file holds: who took it, when (or last renewed it), and a token only the holder knows. */
interface LockHolder {
  pid: number;
  host: string;
  at: string;
  token?: string;
}

/** A holder that wrote its lock file leaves it readable within microseconds; one still unreadable this long stopped between create and write. */
const unreadableGraceMs = 1000;
const firstDelayMs = 2;
const maxDelayMs = 50;
/** `setInterval` takes at most a signed 32-bit delay; a longer one fires at once. */
const maxIntervalMs = 2 ** 31 - 1;

/**
 * A lock per session folder, across processes: the file `<folder>/<file>`,
 * created with O_EXCL and holding `{"pid","host","at","token"}`, removed when
 * the holder releases it. A contender retries with a growing backoff up to
 * `timeoutMs`, then throws `busy`. A lock whose holder is gone (its pid is
 * not alive on this host), older than `staleMs`, or unreadable for more than
 * a second is broken. An unreadable one is waited on for that second whatever
 * `timeoutMs` is: its holder is writing it now, or stopped before it could.
 */
export class SessionLock {
  readonly #files: FileOperations;
  readonly #options: SessionLockOptions;
  readonly #file: string;
  readonly #label: string;
  readonly #host = hostname();

  constructor(files: FileOperations, options: SessionLockOptions) {
    this.#files = files;
    this.#options = options;
    this.#file = options.file ?? '.lock';
    this.#label = options.label ?? 'session lock';
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
    const held = await this.acquire(folder, { createFolder: missing === undefined });
    if (held === undefined) return (missing as () => Promise<Value>)();
    try {
      return await action();
    } finally {
      await held.release();
    }
  }

  /**
   * Takes the lock of `folder` and returns it held, until `release()`.
   * Resolves `undefined` when the folder is missing, unless `createFolder`.
   */
  async acquire(folder: string, options: { createFolder: boolean }): Promise<HeldLock | undefined> {
    const files = this.#files;
    const path = join(folder, this.#file);
    const token = globalThis.crypto.randomUUID();
    const deadline = Date.now() + this.#options.timeoutMs;
    let delay = firstDelayMs;
    let unreadableSince: number | undefined;
    let madeFolder = false;
    for (;;) {
      const mine = this.#text(token);
      try {
        await files.createExclusive(path, mine);
        return this.#hold(folder, path, token);
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' && !options.createFolder) return undefined;
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
      if (holder !== undefined && Date.now() >= deadline) {
        const who = `process ${holder.pid} on ${holder.host} (since ${holder.at})`;
        throw this.#options.busy === undefined
          ? new SessionStorageError(
              path,
              'locked',
              `${who} held this session's lock for more than lockTimeoutMs (${this.#options.timeoutMs} ms)`,
            )
          : this.#options.busy(who, folder);
      }
      await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
      delay = Math.min(delay * 2, maxDelayMs);
    }
  }

  /** Whether a live process other than this one holds the lock of `folder` now. */
  async heldElsewhere(folder: string): Promise<boolean> {
    const holder = parseHolder((await this.#read(join(folder, this.#file))) ?? '');
    if (holder === undefined) return false;
    if (holder.pid === process.pid && holder.host === this.#host) return false;
    return !this.#isStale(holder);
  }

  #text(token: string): string {
    return JSON.stringify({ pid: process.pid, host: this.#host, at: new Date().toISOString(), token });
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
   * stale lock and take a fresh one (or its holder renew it) between our read
   * and our rename; the rename then takes that fresh lock, which is put back when we see it.
   */
  async #breakStale(folder: string, path: string, seen: string): Promise<void> {
    const aside = join(folder, `${this.#file}.stale-${globalThis.crypto.randomUUID()}`);
    try {
      await this.#files.rename(path, aside);
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return;
      throw storageError(path, error);
    }
    const taken = await this.#read(aside);
    if (taken !== undefined && taken !== seen) {
      await this.#files.createExclusive(path, taken).catch(() => {
        this.#options.logger.warn(`a live ${this.#label} was moved aside and could not be put back`, {
          path,
        });
      });
    } else {
      this.#options.logger.warn(`a stale ${this.#label} was broken`, { path, holder: seen });
    }
    await this.#files.unlink(aside).catch(() => {});
  }

  /** The handle of a lock just taken, with its heartbeat started if the options ask for one. */
  #hold(folder: string, path: string, token: string): HeldLock {
    const files = this.#files;
    const logger = this.#options.logger;
    const label = this.#label;
    /** Whether the file still holds our token; undefined when it cannot be read. */
    const ours = async (): Promise<boolean | undefined> => {
      try {
        return parseHolder((await this.#read(path)) ?? '')?.token === token;
      } catch {
        return undefined;
      }
    };
    let timer: ReturnType<typeof setInterval> | undefined;
    let beating: Promise<void> | undefined;
    let released: Promise<void> | undefined;
    const stop = () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    };
    // Renews `at` through a temp file and a rename, so a contender never reads a half-written holder.
    const renew = async (): Promise<void> => {
      const still = await ours();
      if (timer === undefined) return;
      if (still === false) {
        stop();
        // Broken as stale by another process (or the session deleted): renewing would take it from its new holder.
        logger.warn(`a held ${label} was taken over or removed; it is no longer renewed`, { path });
        return;
      }
      if (still === undefined) {
        logger.warn(`a held ${label} could not be read to renew it; retrying at the next beat`, { path });
        return;
      }
      const temporary = join(folder, `${this.#file}.${globalThis.crypto.randomUUID()}.tmp`);
      try {
        await files.createExclusive(temporary, this.#text(token));
        await files.rename(temporary, path);
      } catch (error) {
        await files.unlink(temporary).catch(() => {});
        logger.warn(`a held ${label} could not be renewed; retrying at the next beat`, {
          path,
          error: String(error),
        });
      }
    };
    if (this.#options.heartbeat === true) {
      const every = Math.max(1, Math.min(this.#options.staleMs / 3, maxIntervalMs));
      timer = setInterval(() => {
        // One beat at a time: a slow disk skips beats rather than piling them up.
        if (beating !== undefined) return;
        beating = renew().finally(() => {
          beating = undefined;
        });
      }, every);
      // The heartbeat never keeps a process alive on its own.
      timer.unref();
    }
    return {
      release() {
        released ??= (async () => {
          stop();
          // A beat in flight could put the file back after we remove it: let it finish first.
          await beating;
          // A lock broken as stale while this process held it now belongs to someone else: leave theirs.
          if ((await ours()) !== true) return;
          await files.unlink(path).catch((error: unknown) => {
            logger.warn(`a ${label} could not be removed`, { path, error: String(error) });
          });
        })();
        return released;
      },
    };
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
