import type { FileOperations } from './file-operations.js';
import { errorCode, storageError } from './storage-error.js';

/** What a lock or lease file holds: who took it, when (or last renewed it), and a token only the holder knows. */
export interface LockHolder {
  pid: number;
  host: string;
  at: string;
  token?: string;
}

/** Who this store takes locks and leases as: a pid (`processId`, default `process.pid`) on this host. */
export interface LockOwner {
  pid: number;
  host: string;
}

/** The text of a lock file taken or renewed now by `owner` with `token`. */
export function holderText(owner: LockOwner, token: string, at: Date = new Date()): string {
  return JSON.stringify({ pid: owner.pid, host: owner.host, at: at.toISOString(), token });
}

/** The holder a lock file's text names, or undefined when it is not one (empty, half-written, edited). */
export function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.at === 'string')
      return value as LockHolder;
  } catch {}
  return undefined;
}

/** `process <pid> on <host> (since <at>)`: how errors and warnings name a holder. */
export function describeHolder(holder: LockHolder): string {
  return `process ${holder.pid} on ${holder.host} (since ${holder.at})`;
}

/**
 * Whether a holder has stopped: its `at` is older than `staleMs` (the only
 * test for a process on another host), or its pid is not alive on this host.
 * A pid alive but owned by another user (EPERM) counts as alive.
 */
export function isStaleHolder(holder: LockHolder, staleMs: number, host: string): boolean {
  const age = Date.now() - Date.parse(holder.at);
  if (!(age <= staleMs)) return true;
  if (holder.host !== host) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return errorCode(error) === 'ESRCH';
  }
}

/** A lock file's text, or undefined when it is gone; other failures are `SessionStorageError`s naming it. */
export async function readLockFile(files: FileOperations, path: string): Promise<string | undefined> {
  try {
    return (await files.readFile(path)).toString('utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw storageError(path, error);
  }
}
