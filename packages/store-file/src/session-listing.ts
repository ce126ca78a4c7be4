import { join } from 'node:path';
import {
  advanceSummary,
  checkSessionId,
  type ListSessionsOptions,
  type Logger,
  pageOfSummaries,
  type SessionEvent,
  type SessionPage,
  type SessionSummary,
} from '@agent-core/core';
import { readEventsLog } from './events-log.js';
import type { FileOperations } from './file-operations.js';
import { parseLogLines } from './log-lines.js';
import type { LockState } from './session-lock.js';
import { readSummaryFile, type SummaryFile } from './session-summary-file.js';
import { parseSnapshot, readSnapshot, snapshotFacts, snapshotFileName } from './snapshot-file.js';
import { errorCode, storageError } from './storage-error.js';
import { copySummary, type TrackedSession, trackSession } from './tracked-session.js';

/** What `listSessions` needs of its store. */
export interface ListingSource {
  root: string;
  files: FileOperations;
  logger: Logger;
  /** What this store knows of a session in memory, if anything. */
  tracked(id: string): TrackedSession | undefined;
  /** Who holds the run lease of a session folder now. */
  lease(folder: string): Promise<LockState>;
}

/** What `list` made of one folder. */
type FolderListing = { summary: SessionSummary } | { error: unknown } | undefined;

/** Session folders `list` reads at once: their reads overlap, and a root of thousands never has thousands of files open. */
const listConcurrency = 8;

/**
 * Lists the sessions under `root`, newest first, one page at a time. Per
 * session it reads what is cheapest and still exact (see `summaryOf`): a
 * folder it cannot read is left out with a warning, in id order once all
 * reads end, so the log reads the same on every run.
 */
export async function listSessions(
  source: ListingSource,
  options: ListSessionsOptions,
): Promise<SessionPage> {
  let names: string[];
  try {
    names = await source.files.readdir(source.root);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { sessions: [] };
    throw storageError(source.root, error);
  }
  names.sort();
  const read: FolderListing[] = new Array(names.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < names.length) {
      const index = next++;
      read[index] = await listingOf(source, names[index] as string);
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
    source.logger.warn('a stored session cannot be read; it is left out of the list', {
      path: join(source.root, names[index] as string),
      error: listing.error instanceof Error ? listing.error.message : String(listing.error),
    });
  }
  return pageOfSummaries(summaries, options);
}

/** A folder's listing, the error that kept it from being read, or undefined for what is not a session. */
async function listingOf(source: ListingSource, name: string): Promise<FolderListing> {
  if (name.startsWith('.')) return undefined;
  try {
    checkSessionId(name);
    const summary = await summaryOf(source, name);
    if (summary === undefined) return undefined;
    // Every run holds the lease: a run whose holder stopped (a crash, a process frozen past its
    // lease) or that holds none (its end could not be written, then the lease was given back) is not running.
    if (summary.status === 'running' && (await source.lease(join(source.root, name))) !== 'live')
      summary.status = 'interrupted';
    return { summary };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'session_not_found') return undefined;
    return { error };
  }
}

/**
 * A session's summary, from the cheapest source that is exact: this store's
 * memory when both files still have the lengths it knows (two stats); else
 * `summary.json` when `session.json` has the length it was written with, plus
 * the log records appended after it (usually none: one small read); else the
 * snapshot and the log after its `lastSeq`. Undefined when the folder holds neither.
 */
async function summaryOf(source: ListingSource, id: string): Promise<SessionSummary | undefined> {
  const folder = join(source.root, id);
  const logPath = join(folder, 'events.jsonl');
  const tracked = source.tracked(id);
  // At once: each answer is checked against the others, so a write between them only sends this to the slower, exact way.
  const [snapshotBytes, logBytes, file] = await Promise.all([
    sizeOf(source.files, join(folder, snapshotFileName)),
    sizeOf(source.files, logPath),
    tracked === undefined ? readSummaryFile(source.files, folder, id) : undefined,
  ]);
  // No snapshot and no log: a folder being made, or no session. A log without its snapshot is a
  // session that lost it: the read below refuses it, so the listing warns about it.
  if (snapshotBytes === 0 && logBytes === 0) return undefined;
  if (tracked !== undefined && tracked.snapshot.bytes === snapshotBytes && tracked.log.bytes === logBytes)
    return copySummary(tracked.summary);
  const stored = file ?? (await readSummaryFile(source.files, folder, id));
  if (stored !== undefined && stored.snapshotBytes === snapshotBytes && stored.logBytes <= logBytes) {
    if (stored.logBytes === logBytes) return stored.summary;
    const folded = await withLogAfter(source.files, logPath, stored);
    if (folded !== undefined) return folded;
  }
  return fromSnapshot(source, id, folder, logPath);
}

/**
 * `stored`'s summary with the records appended after it folded in: a run in
 * progress, or a crash between an append and the summary's write. Undefined
 * when the log there does not continue it (not at a line's start, a seq that
 * does not follow, a line that is not a record): the caller reads the snapshot.
 * An unfinished last line is an append in progress and is left out.
 */
async function withLogAfter(
  files: FileOperations,
  logPath: string,
  stored: SummaryFile,
): Promise<SessionSummary | undefined> {
  const from = stored.logBytes;
  let bytes: Buffer;
  try {
    bytes = await files.readFrom(logPath, from === 0 ? 0 : from - 1);
  } catch {
    return undefined;
  }
  if (from > 0 && bytes[0] !== 0x0a) return undefined;
  const tail = from === 0 ? bytes : bytes.subarray(1);
  const events: SessionEvent[] = [];
  let expected = stored.logSeq + 1;
  for (const line of parseLogLines(tail.subarray(0, tail.lastIndexOf(0x0a) + 1))) {
    if (line.record === undefined || line.record.seq !== expected) return undefined;
    events.push(line.record.event);
    expected++;
  }
  return advanceSummary(stored.summary, events);
}

/** The summary of the snapshot and the log after its `lastSeq`: exact, and the cost of a load. */
async function fromSnapshot(
  source: ListingSource,
  id: string,
  folder: string,
  logPath: string,
): Promise<SessionSummary> {
  const bytes = await readSnapshot(source.files, folder, id, source.root);
  const state = await parseSnapshot(bytes, join(folder, snapshotFileName));
  const facts = snapshotFacts(state, bytes.length);
  let log: Awaited<ReturnType<typeof readEventsLog>>;
  try {
    log = await readEventsLog(logPath, source.files, {
      sessionId: id,
      snapshotLastSeq: state.lastSeq,
      logger: source.logger,
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === 'session_corrupt') throw error;
    throw storageError(logPath, error);
  }
  return trackSession(facts, log.index, log.records).summary;
}

async function sizeOf(files: FileOperations, path: string): Promise<number> {
  try {
    return await files.size(path);
  } catch (error) {
    throw storageError(path, error);
  }
}
