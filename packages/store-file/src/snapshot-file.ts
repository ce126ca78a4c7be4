import { basename, dirname, join } from 'node:path';
import {
  AgentError,
  parseSessionState,
  SessionCorruptError,
  SessionNotFoundError,
  type SessionState,
  type SessionSummary,
  summaryOf,
} from '@agent-core/core';
import type { FileOperations } from './file-operations.js';
import { errorCode, storageError } from './storage-error.js';

/** The snapshot of a session in its folder. */
export const snapshotFileName = 'session.json';

/** What the store keeps in memory about a snapshot it read or wrote: enough to follow it without reading it again. */
export interface SnapshotFacts {
  /** The length of `session.json`: another length means another process replaced it. */
  bytes: number;
  /** The seq of the last log record it includes. */
  lastSeq: number;
  /** `summaryOf` the snapshot, before any log record after `lastSeq`. */
  summary: SessionSummary;
}

/** The facts of a stored state; the summary's metadata is a copy, so a caller changing the state changes nothing here. */
export function snapshotFacts(state: SessionState, bytes: number): SnapshotFacts {
  const summary = summaryOf(state);
  return {
    bytes,
    lastSeq: state.lastSeq,
    summary: { ...summary, metadata: structuredClone(summary.metadata) },
  };
}

/**
 * The bytes of `<folder>/session.json`; `SessionNotFoundError` when there is
 * none, `SessionCorruptError` (ending with `advice`) when an events log is there without it.
 */
export async function readSnapshot(
  files: FileOperations,
  folder: string,
  id: string,
  root: string,
  advice = restoreAdvice,
): Promise<Buffer> {
  const path = join(folder, snapshotFileName);
  try {
    return await files.readFile(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw storageError(path, error);
    await refuseOrphanLog(files, folder, advice);
    throw new SessionNotFoundError(id, root);
  }
}

/**
 * Throws `SessionCorruptError` naming `session.json`, its message ending with
 * `advice`, when the snapshot is missing but the events log beside it holds
 * bytes: the session was stored and lost its snapshot. Taking it for unknown
 * would let a new session with its id take over the old history.
 */
export async function refuseOrphanLog(
  files: FileOperations,
  folder: string,
  advice = restoreAdvice,
): Promise<void> {
  const logPath = join(folder, 'events.jsonl');
  let logBytes: number;
  try {
    logBytes = await files.size(logPath);
  } catch (error) {
    throw storageError(logPath, error);
  }
  if (logBytes === 0) return;
  throw new SessionCorruptError(
    join(folder, snapshotFileName),
    `it is missing, but the events log beside it holds ${logBytes} bytes of the session's history. ${advice}`,
  );
}

/** Parses and checks a snapshot's bytes; `SessionCorruptError` naming `path` for anything unreadable or for another session's id. */
export async function parseSnapshot(bytes: Buffer, path: string): Promise<SessionState> {
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new SessionCorruptError(path, `not valid JSON (${(error as Error).message}). ${restoreAdvice}`, {
      cause: error,
    });
  }
  let state: SessionState;
  try {
    state = await parseSessionState(raw, { source: path });
  } catch (error) {
    // Core's check names the file and the field; the store knows what to do about it.
    // A newer schemaVersion already says to upgrade; anything else gets the store's advice.
    if (
      !AgentError.isInstance(error) ||
      !(error instanceof SessionCorruptError) ||
      /Upgrade /.test(error.message)
    )
      throw error;
    const prefix = `Session data in ${path} cannot be read${error.field === undefined ? '' : ` (field '${error.field}')`}: `;
    const detail = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    throw new SessionCorruptError(path, `${detail.replace(/\.?$/, '.')} ${restoreAdvice}`, {
      field: error.field,
      code: error.code as 'session_corrupt' | 'session_schema_unsupported',
      cause: error,
    });
  }
  // A session's folder is named after its id: a snapshot holding another id would load as that session.
  const folderId = basename(dirname(path));
  if (state.id !== folderId)
    throw new SessionCorruptError(
      path,
      `it holds session '${state.id}', but it is the snapshot of session '${folderId}'. ${restoreAdvice}`,
      {
        field: 'id',
      },
    );
  return state;
}

/** What to do about a snapshot that cannot be read: a repair only cuts the events log, so it cannot mend one. */
export const restoreAdvice =
  'Restore it from a backup (a repair-<time> folder beside it, if the session was repaired) or delete the session.';

/** The stored version, read straight from the snapshot's JSON; undefined when none is stored. */
export async function storedVersion(files: FileOperations, folder: string): Promise<number | undefined> {
  const path = join(folder, snapshotFileName);
  let text: string;
  try {
    text = (await files.readFile(path)).toString('utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw storageError(path, error);
  }
  try {
    const version = (JSON.parse(text) as { version?: unknown }).version;
    if (typeof version === 'number') return version;
  } catch {}
  throw new SessionCorruptError(
    path,
    'its version cannot be read, so it is not overwritten. Restore or delete it first.',
    { field: 'version' },
  );
}

/**
 * Replaces `<folder>/session.json` atomically: a temp file in the same folder,
 * fsync, rename, fsync the folder. Returns the bytes written. A failure removes
 * the temp file and throws `SessionStorageError`; the old snapshot stays.
 */
export async function writeSnapshot(files: FileOperations, folder: string, data: string): Promise<number> {
  const path = join(folder, snapshotFileName);
  const temporary = join(folder, `.${snapshotFileName}.${globalThis.crypto.randomUUID()}.tmp`);
  try {
    await files.writeNew(temporary, data);
    await files.rename(temporary, path);
    await files.syncDirectory(folder);
  } catch (error) {
    await files.unlink(temporary).catch(() => {});
    throw storageError(path, error);
  }
  return Buffer.byteLength(data);
}
