import { join } from 'node:path';
import { type Logger, SessionStorageError } from '@agent-core/core';
import type { FileOperations } from './file-operations.js';
import { type HeldLock, holdLock } from './held-lock.js';
import {
  describeHolder,
  holderText,
  isStaleHolder,
  type LockOwner,
  parseHolder,
  readLockFile,
} from './lock-file.js';
import { errorCode, storageError } from './storage-error.js';

export type { HeldLock } from './held-lock.js';

/** Options of `SessionLock`. */
export interface SessionLockOptions {
  /** The lock file's name in the session folder. Default `.lock`. */
  file?: string;
  /** What warnings call the file. Default `session lock`. */
  label?: string;
  /** Who takes the lock: this store's `processId` on this host. */
  owner: LockOwner;
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
  /** The error a held lock's `confirm()` throws once another holder has it; default a `SessionStorageError`. */
  lost?: (detail: string, folder: string) => Error;
  /** The error a held lock's `confirm()` throws after its release. */
  released?: (folder: string) => Error;
  logger: Logger;
}

/** Who holds a lock now, as `SessionLock.inspect` sees it. */
export type LockState = 'free' | 'live' | 'stale';

/** A holder that wrote its lock file leaves it readable within microseconds; one still unreadable this long stopped between create and write. */
const unreadableGraceMs = 1000;
const firstDelayMs = 2;
const maxDelayMs = 50;

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
      const takenAt = new Date();
      try {
        await files.createExclusive(path, holderText(this.#options.owner, token, takenAt));
        return this.#hold(folder, token, takenAt);
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
      const seen = await readLockFile(files, path);
      if (seen === undefined) continue;
      const holder = parseHolder(seen);
      if (holder === undefined) unreadableSince ??= Date.now();
      else unreadableSince = undefined;
      if (
        holder === undefined
          ? Date.now() - (unreadableSince as number) > unreadableGraceMs
          : isStaleHolder(holder, this.#options.staleMs, this.#options.owner.host)
      ) {
        await this.#breakStale(folder, path, seen);
        continue;
      }
      if (holder !== undefined && Date.now() >= deadline) {
        const who = describeHolder(holder);
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

  /** Whether a live process other than this store's own holds the lock of `folder` now. */
  async heldElsewhere(folder: string): Promise<boolean> {
    const text = await readLockFile(this.#files, join(folder, this.#file));
    if (text === undefined) return false;
    const holder = parseHolder(text);
    // A file read while its holder writes it: not proof that no one holds it.
    if (holder === undefined) return true;
    const owner = this.#options.owner;
    if (holder.pid === owner.pid && holder.host === owner.host) return false;
    return !isStaleHolder(holder, this.#options.staleMs, owner.host);
  }

  /**
   * Whether the lock of `folder` is held now: `free` (no file), `live` (a
   * holder that may still be running, this process included, or a file being
   * written), or `stale` (its holder stopped, so a contender would break it).
   */
  async inspect(folder: string): Promise<LockState> {
    const text = await readLockFile(this.#files, join(folder, this.#file));
    if (text === undefined) return 'free';
    const holder = parseHolder(text);
    if (holder === undefined) return 'live';
    return isStaleHolder(holder, this.#options.staleMs, this.#options.owner.host) ? 'stale' : 'live';
  }

  #hold(folder: string, token: string, takenAt: Date): HeldLock {
    const options = this.#options;
    return holdLock({
      files: this.#files,
      folder,
      file: this.#file,
      label: this.#label,
      token,
      owner: options.owner,
      takenAt,
      staleMs: options.staleMs,
      heartbeat: options.heartbeat === true,
      logger: options.logger,
      lost: (detail) =>
        options.lost?.(detail, folder) ??
        new SessionStorageError(
          join(folder, this.#file),
          'locked',
          `this ${this.#label} was lost: ${detail}`,
        ),
      released: () =>
        options.released?.(folder) ??
        new SessionStorageError(join(folder, this.#file), 'io', `this ${this.#label} was already released`),
    });
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
    const taken = await readLockFile(this.#files, aside);
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

  async #mkdir(folder: string): Promise<void> {
    try {
      await this.#files.mkdir(folder);
    } catch (error) {
      throw storageError(folder, error);
    }
  }
}
