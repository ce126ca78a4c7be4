import { join } from 'node:path';
import type { Logger } from '@agent-core/core';
import type { FileOperations } from './file-operations.js';
import { describeHolder, holderText, type LockOwner, parseHolder, readLockFile } from './lock-file.js';
import { errorCode } from './storage-error.js';

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
 * The handle of a lock file just taken: its heartbeat, the check a write
 * makes before it goes ahead (`confirm`), and its release.
 *
 * A renewal rewrites `at` in place, through the file it opened and read: the
 * new text has the old one's length, and the token is checked on that same
 * open file. Another process takes a lease only by moving the file aside and
 * creating a new one, so a renewal that comes late (a process frozen, then
 * woken) either lands before the taker read what it moved aside (which then
 * sees a live holder and puts it back) or lands in the file moved aside: it
 * never writes over the new holder's.
 */
export function holdLock(options: HoldOptions): HeldLock {
  const { files, label, logger, token, staleMs } = options;
  const path = join(options.folder, options.file);
  let renewedAt = options.takenAt.getTime();
  let state: 'held' | 'lost' | 'released' = 'held';
  let lostDetail = '';
  let timer: ReturnType<typeof setInterval> | undefined;
  let beating: Promise<void> | undefined;
  let released: Promise<void> | undefined;
  /** The identity (`FileOperations.identity`) the file had when it was last seen holding our token. */
  let identity: string | undefined;
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

  /**
   * Notes the file's identity, then reads it: the identity is kept only when
   * the read, made after, still finds our token (a file replaced in between
   * is someone else's, and then the lock is lost).
   */
  const remember = async (): Promise<boolean> => {
    const now = await files.identity(path);
    const seen = await readLockFile(files, path);
    if (!ours(seen)) {
      markLost(seen);
      return false;
    }
    identity = now;
    return true;
  };

  const renew = async (): Promise<void> => {
    if (state !== 'held') return;
    const at = new Date();
    let seen: string | undefined;
    let wrote: boolean;
    try {
      wrote = await files.rewriteIf(path, holderText(options.owner, token, at), (current) => {
        seen = current;
        return ours(current);
      });
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return markLost(undefined);
      logger.warn(`a held ${label} could not be renewed; retrying at the next beat`, {
        path,
        error: String(error),
      });
      return;
    }
    if (!wrote) return markLost(seen);
    renewedAt = at.getTime();
    await remember().catch(() => {
      identity = undefined;
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
      // The file we last saw holding our token, untouched since: a stat tells, no read needed.
      if (identity !== undefined && (await files.identity(path)) === identity) return;
      if (!(await remember())) throw options.lost(lostDetail);
    },
    release() {
      released ??= (async () => {
        const held = state === 'held';
        if (held) state = 'released';
        stop();
        // A beat in flight could still be writing: let it finish first.
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
