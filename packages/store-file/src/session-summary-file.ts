import { join } from 'node:path';
import type { Logger, SessionStatus, SessionSummary } from '@agent-core/core';
import type { FileOperations } from './file-operations.js';

/**
 * `<root>/<id>/summary.json`: what `list` shows of a session, so a listing
 * reads a few hundred bytes per session rather than its whole history.
 * It is derived from `session.json` and `events.jsonl` and never the truth:
 * `load` always reads the snapshot, and `list` reads the snapshot and the log
 * whenever this file is missing, malformed, or was written for a snapshot of
 * another length or a log longer than the one there now.
 */
export const summaryFileName = 'summary.json';

/**
 * The file's content. `snapshotBytes` is the length of the `session.json` it
 * was written with, so a snapshot replaced without it is noticed by a stat;
 * `logBytes` and `logSeq` say how much of `events.jsonl` it includes, so the
 * records appended since can be read from there and folded in.
 */
export interface SummaryFile {
  version: number;
  snapshotBytes: number;
  logBytes: number;
  logSeq: number;
  summary: SessionSummary;
}

// A Record, so a status added to core fails to compile here until it is listed.
const statuses: Record<SessionStatus, true> = {
  idle: true,
  running: true,
  interrupted: true,
  await_user: true,
  failed: true,
};

/**
 * Replaces `<folder>/summary.json` with a temp file and a rename, after what
 * it sums up is stored. Returns the bytes written. A failure only warns,
 * removes the temp file and the older summary (so `list` reads the snapshot
 * instead), and returns 0: what it sums up is stored, so the write stands.
 */
export async function writeSummaryFile(
  files: FileOperations,
  folder: string,
  content: SummaryFile,
  logger: Logger,
): Promise<number> {
  const path = join(folder, summaryFileName);
  const temporary = join(folder, `.${summaryFileName}.${globalThis.crypto.randomUUID()}.tmp`);
  const data = JSON.stringify(content);
  try {
    // No fsync: a summary lost or torn by a power cut is rebuilt from session.json, which is fsynced.
    await files.createExclusive(temporary, data);
    await files.rename(temporary, path);
    return Buffer.byteLength(data);
  } catch (error) {
    await files.unlink(temporary).catch(() => {});
    await files.unlink(path).catch(() => {});
    logger.warn('a session summary could not be written; list reads the snapshot instead', {
      path,
      error: error instanceof Error ? error.message : String(error),
    });
    return 0;
  }
}

/** Removes `<folder>/summary.json`, so `list` reads the snapshot and the log until the next write puts one back. */
export async function removeSummaryFile(files: FileOperations, folder: string): Promise<void> {
  await files.unlink(join(folder, summaryFileName)).catch(() => {});
}

/**
 * The summary file of session `id` in `folder`, or undefined when it is
 * missing, unreadable or malformed (or written by an earlier version, without
 * `logBytes`). Whether it still fits the files beside it is the caller's to check.
 */
export async function readSummaryFile(
  files: FileOperations,
  folder: string,
  id: string,
): Promise<SummaryFile | undefined> {
  try {
    const text = (await files.readFile(join(folder, summaryFileName))).toString('utf8');
    return wellFormed(JSON.parse(text), id);
  } catch {
    return undefined;
  }
}

/** The file's content checked field by field; a fresh summary holding only the summary's fields. */
function wellFormed(raw: unknown, id: string): SummaryFile | undefined {
  if (!isObject(raw) || !isObject(raw.summary)) return undefined;
  const { version, snapshotBytes, logBytes, logSeq } = raw;
  const { status, createdAt, updatedAt, metadata, messageCount, title, pendingApprovalCount } = raw.summary;
  if (
    typeof version !== 'number' ||
    !Number.isInteger(version) ||
    version < 1 ||
    raw.summary.version !== version ||
    typeof snapshotBytes !== 'number' ||
    !Number.isInteger(snapshotBytes) ||
    snapshotBytes < 1 ||
    !isCount(logBytes) ||
    !isCount(logSeq) ||
    raw.summary.id !== id ||
    typeof status !== 'string' ||
    !Object.hasOwn(statuses, status) ||
    typeof createdAt !== 'string' ||
    typeof updatedAt !== 'string' ||
    !isObject(metadata) ||
    !isCount(messageCount) ||
    typeof title !== 'string' ||
    !isCount(pendingApprovalCount)
  )
    return undefined;
  return {
    version,
    snapshotBytes,
    logBytes,
    logSeq,
    summary: {
      id,
      status: status as SessionStatus,
      createdAt,
      updatedAt,
      version,
      metadata,
      messageCount,
      title,
      pendingApprovalCount,
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}
