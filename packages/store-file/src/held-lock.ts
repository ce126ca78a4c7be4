import { join } from 'node:path';
import type { Logger } from '@agent-core/core';
import type { FileOperations } from './file-operations.js';
import { describeHolder, holderText, type LockOwner, parseHolder, readLockFile } from './lock-file.js';

/** A lock this process holds, from `SessionLock.acquire`. */
export interface HeldLock {
  /**
   * Stops the heartbeat and removes the file if it still holds this holder's
   * token (one broken as stale now belongs to someone else). Calling it again does nothing.
   */
  release(): Promise<void>;
  /**
   * Resolves when the file still holds this holder's token, renewing it first
   * when its last renewal is half its time old; rejects with the `lost` error
   * once another holder has it (or it is gone), and with the `released` error after `release()`.
   */
  confirm(): Promise<void>;
}

/** What `holdLock` needs to know about the file just taken. */
export interface HoldOptions {
  files: FileOperations;
  folder: string;
  /** The file's name in `folder`. */
  file: string;
  /** What warnings call the file. */
  label: string;
  token: string;
  owner: LockOwner;
  /** When the text in the file was written: the lease counts its age from there. */
  takenAt: Date;
  staleMs: number;
  /** Renew the file every `staleMs / 3`. */
  heartbeat: boolean;
  logger: Logger;
  /** The error `confirm` throws once the lock is lost; `detail` says who has it now. */
  lost: (detail: string) => Error;
  /** The error `confirm` throws after `release()`. */
  released: () => Error;
}

/** `setInterval` takes at most a signed 32-bit delay; a longer one fires at once. */
const maxIntervalMs = 2 ** 31 - 1;
/**
 * A renewal later than this share of `staleMs` (a frozen or blocked process)
 * no longer rewrites the file in place: a contender may be breaking it at that
 * very moment, so the holder takes it back the way a contender would (see `retake`).
 */
const riskShare = 0.8;

/**
 * The handle of a lock file just taken: its heartbeat (a rewrite with a fresh
 * `at` every `staleMs / 3`, through a temp file and a rename, so no one reads
 * it half-written), the check a write makes before it goes ahead
 * (`confirm`), and its release. A holder whose file another process took
 * never writes over it: a renewal checks the token right before its rename,
 * and one that comes late takes the file back only through a rename aside and
 * an exclusive create, which fail if another process got there first.
 */
export function holdLock(options: HoldOptions): HeldLock {
  const { files, folder, label, logger, token, staleMs } = options;
  const path = join(folder, options.file);
  let renewedAt = options.takenAt.getTime();
  let state: 'held' | 'lost' | 'released' = 'held';
  let lostDetail = '';
  let timer: ReturnType<typeof setInterval> | undefined;
  let beating: Promise<void> | undefined;
  let released: Promise<void> | undefined;
  const ours = (text: string | undefined) => text !== undefined && parseHolder(text)?.token === token;
  const stop = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  const markLost = (seen: string | undefined) => {
    if (state !== 'held') return;
    state = 'lost';
    const holder = seen === undefined ? undefined : parseHolder(seen);
    lostDetail = holder === undefined ? 'its lease file is gone' : `${describeHolder(holder)} holds it now`;
    stop();
    // Broken as stale by another process (or the session deleted): renewing would take it from its new holder.
    logger.warn(`a held ${label} was taken over or removed; it is no longer renewed`, { path });
  };
  const late = () => Date.now() - renewedAt >= staleMs * riskShare;

  /** Takes the file back after a late beat: moved aside (only one process can), checked to be ours, created anew. */
  const retake = async (): Promise<void> => {
    const seen = await readLockFile(files, path);
    if (!ours(seen)) return markLost(seen);
    const aside = join(folder, `${options.file}.renew-${globalThis.crypto.randomUUID()}`);
    try {
      await files.rename(path, aside);
    } catch {
      return markLost(await readLockFile(files, path).catch(() => undefined));
    }
    const taken = await readLockFile(files, aside).catch(() => undefined);
    if (taken !== seen) {
      // Another holder's file went aside in the moment between the read and the rename: it is theirs, put it back.
      if (taken !== undefined)
        await files.createExclusive(path, taken).catch(() => {
          logger.warn(`a live ${label} was moved aside and could not be put back`, { path });
        });
      await files.unlink(aside).catch(() => {});
      return markLost(taken);
    }
    const at = new Date();
    try {
      await files.createExclusive(path, holderText(options.owner, token, at));
      renewedAt = at.getTime();
    } catch {
      // Another process created the file while ours was away: the lease is theirs now.
      markLost(await readLockFile(files, path).catch(() => undefined));
    }
    await files.unlink(aside).catch(() => {});
  };

  const renew = async (): Promise<void> => {
    if (state !== 'held') return;
    if (late()) return retake().catch((error: unknown) => warnNotRenewed(error));
    const at = new Date();
    const temporary = join(folder, `${options.file}.${globalThis.crypto.randomUUID()}.tmp`);
    try {
      await files.createExclusive(temporary, holderText(options.owner, token, at));
      let seen: string | undefined;
      try {
        seen = await readLockFile(files, path);
      } catch {
        await files.unlink(temporary).catch(() => {});
        logger.warn(`a held ${label} could not be read to renew it; retrying at the next beat`, { path });
        return;
      }
      // Checked last, right before the rename, so the window in which another process could take it is a rename long.
      if (!ours(seen) || late()) {
        await files.unlink(temporary).catch(() => {});
        return ours(seen) ? await retake() : markLost(seen);
      }
      await files.rename(temporary, path);
      renewedAt = at.getTime();
    } catch (error) {
      await files.unlink(temporary).catch(() => {});
      warnNotRenewed(error);
    }
  };
  const warnNotRenewed = (error: unknown) => {
    logger.warn(`a held ${label} could not be renewed; retrying at the next beat`, {
      path,
      error: String(error),
    });
  };
  // One beat at a time: a slow disk skips beats rather than piling them up, and a write's check waits for the one in flight.
  const beat = (): Promise<void> => {
    beating ??= renew().finally(() => {
      beating = undefined;
    });
    return beating;
  };

  if (options.heartbeat) {
    const every = Math.max(1, Math.min(staleMs / 3, maxIntervalMs));
    timer = setInterval(() => {
      if (beating === undefined) void beat();
    }, every);
    // The heartbeat never keeps a process alive on its own.
    timer.unref();
  }

  return {
    async confirm() {
      await beating;
      // A write after a long pause renews first, so no contender can break the lease while the write is on its way.
      if (state === 'held' && options.heartbeat && Date.now() - renewedAt >= staleMs / 2) await beat();
      if (state === 'released') throw options.released();
      if (state === 'lost') throw options.lost(lostDetail);
      const seen = await readLockFile(files, path);
      if (ours(seen)) return;
      markLost(seen);
      throw options.lost(lostDetail);
    },
    release() {
      released ??= (async () => {
        const held = state === 'held';
        if (held) state = 'released';
        stop();
        // A beat in flight could put the file back after we remove it: let it finish first.
        await beating;
        if (!held) return;
        // A lock broken as stale while this process held it now belongs to someone else: leave theirs.
        if (!ours(await readLockFile(files, path).catch(() => undefined))) return;
        await files.unlink(path).catch((error: unknown) => {
          logger.warn(`a ${label} could not be removed`, { path, error: String(error) });
        });
      })();
      return released;
    },
  };
}
