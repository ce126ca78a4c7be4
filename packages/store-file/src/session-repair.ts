import { join } from 'node:path';
import {
  AgentError,
  historyProblems,
  type AgentMessage,
  SessionCorruptError,
  type SessionLogRecord,
  type SessionState,
} from '@agent-core/core';
import { checkReplayedMessages } from './check-replayed-messages.js';
import { type LogIndex, SeqChecker } from './events-log.js';
import type { FileOperations } from './file-operations.js';
import { type LogLine, parseLogLines } from './log-lines.js';
import { parseSnapshot, readSnapshot, restoreAdvice, snapshotFileName } from './snapshot-file.js';
import { errorCode, storageError } from './storage-error.js';

/** What `FileSessionStore.repair` found and did. */
export interface SessionRepairReport {
  sessionId: string;
  /** Whether anything was changed; false when the session was consistent already (and then no backup is made). */
  changed: boolean;
  /** The folder holding copies of `session.json` and `events.jsonl` as they were before the repair; undefined when nothing changed. */
  backup: string | undefined;
  /** Records the log keeps. */
  keptRecords: number;
  /** Complete records cut from the log: everything after its last consistent point. */
  droppedRecords: number;
  /** Lines cut from the log that were not records (a corrupt line, a torn last line). */
  droppedLines: number;
  /** The seq of the last record the log keeps (0 when it keeps none): the next append follows it. */
  lastSeq: number;
  /** Whether `session.json` was saved again with `lastSeq` set to where the log now ends. */
  snapshotRewritten: boolean;
  /** What was wrong, one sentence each; damage the snapshot covers is listed too, though left in place. */
  problems: string[];
}

/** What a repair needs of its store, beyond the files. */
export interface RepairContext {
  root: string;
  folder: string;
  files: FileOperations;
  counter: { bytesWritten: number };
  /** Saves `state` over the version it was read at (the store's own save, with its summary), under the repair's lease. */
  save(state: SessionState): Promise<void>;
  /** Writes `summary.json` for the snapshot and the log records that remain. */
  writeSummary(
    state: SessionState,
    snapshotBytes: number,
    log: LogIndex,
    records: SessionLogRecord[],
  ): Promise<void>;
  /** Forgets what the store kept in memory about the session. */
  forget(): void;
}

const logFileName = 'events.jsonl';

/** What to do about a snapshot a repair cannot use: the log need not hold the whole history (a session can start with messages, or be compacted). */
const cannotRebuild =
  'A repair only cuts the events log and cannot rebuild a snapshot: restore session.json from a backup (a repair-<time> folder beside it holds what an earlier repair kept), or delete the session.';

/**
 * Cuts a session back to its last consistent point (the caller holds its
 * lease): the log keeps every record up to the first damage the snapshot
 * does not cover (a line that is not a record, a gap or a repeat in the seqs
 * after the snapshot's `lastSeq`) and up to the last record that still gives
 * a history a model accepts; a torn last line goes too. When the log then
 * ends before the snapshot's `lastSeq`, the snapshot is saved again with
 * `lastSeq` at the log's end. Copies of both files go to a new
 * `repair-<time>` folder in the session's folder first. A snapshot that
 * cannot be parsed, or whose own history is invalid, is `SessionCorruptError`
 * and nothing changes.
 */
export async function repairSession(id: string, context: RepairContext): Promise<SessionRepairReport> {
  const { folder, files } = context;
  const snapshotPath = join(folder, snapshotFileName);
  const snapshotBytes = await readSnapshot(
    files,
    folder,
    id,
    context.root,
    `${cannotRebuild} Nothing was changed.`,
  );
  const state = await parsedSnapshot(snapshotBytes, snapshotPath);
  const invalid = historyProblems(state.messages, { allowPendingCalls: true });
  if (invalid.length > 0)
    throw new SessionCorruptError(
      snapshotPath,
      `its own history could not be sent to a model (${invalid.slice(0, 3).join('; ')}). A repair only cuts the events log, so it cannot mend it: restore session.json from a backup, or delete the session. Nothing was changed.`,
    );
  const logPath = join(folder, logFileName);
  const log = await readLog(files, logPath);
  const plan = await planCut(state, log);
  const report: SessionRepairReport = {
    sessionId: id,
    changed: plan.cutAt < log.length || plan.lastSeq < state.lastSeq,
    backup: undefined,
    keptRecords: plan.kept.length,
    droppedRecords: plan.droppedRecords,
    droppedLines: plan.droppedLines,
    lastSeq: plan.lastSeq,
    snapshotRewritten: false,
    problems: plan.problems,
  };
  if (!report.changed) return report;

  report.backup = await backUp(files, folder, snapshotBytes, log, context.counter);
  // Gone before anything changes, so a repair stopped half-way leaves no summary of the old files.
  await files.unlink(join(folder, 'summary.json')).catch(() => {});
  context.forget();
  if (plan.cutAt < log.length) {
    try {
      await files.truncate(logPath, plan.cutAt);
    } catch (error) {
      throw storageError(logPath, error);
    }
  }
  const index: LogIndex = { lastSeq: plan.lastSeq, operations: new Map(), bytes: plan.cutAt };
  for (const record of plan.kept) {
    const known = index.operations.get(record.operationId);
    if (known === undefined)
      index.operations.set(record.operationId, { firstSeq: record.seq, lastSeq: record.seq });
    else known.lastSeq = record.seq;
  }
  if (plan.lastSeq < state.lastSeq) {
    await context.save({ ...state, lastSeq: plan.lastSeq });
    report.snapshotRewritten = true;
  } else {
    await context.writeSummary(state, snapshotBytes.length, index, plan.kept);
  }
  return report;
}

/** Where the log is cut and what it keeps. */
interface CutPlan {
  /** The byte offset the log is cut at; its length when nothing is cut. */
  cutAt: number;
  kept: SessionLogRecord[];
  lastSeq: number;
  droppedRecords: number;
  droppedLines: number;
  problems: string[];
}

async function planCut(state: SessionState, log: Buffer): Promise<CutPlan> {
  const end = log.lastIndexOf(0x0a) + 1;
  const lines = parseLogLines(log.subarray(0, end));
  const problems: string[] = [];
  const checker = new SeqChecker(state.lastSeq);
  const kept: { record: SessionLogRecord; line: LogLine }[] = [];
  let stop = lines.length;
  for (const [position, line] of lines.entries()) {
    const verdict = checker.check(line);
    if (verdict.kind === 'fatal') {
      problems.push(`events.jsonl: ${verdict.detail}.`);
      stop = position;
      break;
    }
    if (verdict.kind === 'covered') {
      problems.push(
        `events.jsonl line ${line.line}: ${verdict.message} (left in place: session.json holds that history).`,
      );
      continue;
    }
    kept.push({ record: verdict.record, line });
  }
  // The records a load replays must give a history a model accepts; validity only ever ends, so the last good prefix is found by halving.
  const replayed = kept.filter((entry) => entry.record.seq > state.lastSeq);
  // A record whose message no session can hold is cut with everything after it, as a load refuses it.
  const invalid = await checkReplayedMessages(replayed.map((entry) => entry.record));
  if (invalid !== undefined) {
    const first = replayed[invalid.position] as { record: SessionLogRecord; line: LogLine };
    problems.push(`events.jsonl line ${first.line.line} (seq ${first.record.seq}): ${invalid.problem}.`);
    kept.length -= replayed.length - invalid.position;
    replayed.length = invalid.position;
    stop = lines.indexOf(first.line);
  }
  const valid = lastValidPrefix(state.messages, replayed);
  if (valid < replayed.length) {
    const first = replayed[valid] as { record: SessionLogRecord; line: LogLine };
    const messages = historyWith(state.messages, replayed.slice(0, valid + 1));
    const problem = historyProblems(messages, { allowPendingCalls: true })[0] ?? 'an invalid history';
    problems.push(
      `events.jsonl line ${first.line.line} (seq ${first.record.seq}) would give a history a model refuses: ${problem}.`,
    );
    kept.length -= replayed.length - valid;
    stop = lines.indexOf(first.line);
  }
  const lastSeq = kept.at(-1)?.record.seq ?? 0;
  if (lastSeq < state.lastSeq) {
    problems.push(
      `events.jsonl ends at seq ${lastSeq}, but session.json includes records up to seq ${state.lastSeq}.`,
    );
    // The snapshot is saved again with this lastSeq, so damaged lines after the last record kept would
    // come after it, where a load refuses them: they go too.
    const afterKept = kept.length === 0 ? 0 : lines.indexOf((kept.at(-1) as { line: LogLine }).line) + 1;
    stop = Math.min(stop, afterKept);
  }
  // Cut right before the first line dropped: damage the snapshot covers and blank lines ahead of it stay.
  const cutAt = stop < lines.length ? (lines[stop] as LogLine).start : end;
  if (end < log.length) problems.push('events.jsonl: its last line is torn (a crash during an append).');
  const dropped = lines.slice(stop);
  return {
    cutAt,
    kept: kept.map((entry) => entry.record),
    lastSeq,
    droppedRecords: dropped.filter((line) => line.record !== undefined).length,
    droppedLines: dropped.filter((line) => line.record === undefined).length + (end < log.length ? 1 : 0),
    problems,
  };
}

/** How many of `replayed` the snapshot's history can take before it becomes one a model refuses. */
function lastValidPrefix(
  snapshot: readonly AgentMessage[],
  replayed: readonly { record: SessionLogRecord }[],
): number {
  const validWith = (count: number) =>
    historyProblems(historyWith(snapshot, replayed.slice(0, count)), { allowPendingCalls: true }).length ===
    0;
  if (validWith(replayed.length)) return replayed.length;
  let low = 0;
  let high = replayed.length;
  // validWith(low) holds, validWith(high) does not.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (validWith(middle)) low = middle;
    else high = middle;
  }
  return low;
}

function historyWith(
  snapshot: readonly AgentMessage[],
  records: readonly { record: SessionLogRecord }[],
): AgentMessage[] {
  const messages = snapshot.slice();
  for (const { record } of records) if (record.event.type === 'message') messages.push(record.event.message);
  return messages;
}

async function parsedSnapshot(bytes: Buffer, path: string): Promise<SessionState> {
  try {
    return await parseSnapshot(bytes, path);
  } catch (error) {
    if (!AgentError.isInstance(error)) throw error;
    throw new SessionCorruptError(
      path,
      `it cannot be parsed (${error.message.replace(` ${restoreAdvice}`, '')}). ${cannotRebuild} Nothing was changed.`,
      { cause: error },
    );
  }
}

async function readLog(files: FileOperations, path: string): Promise<Buffer> {
  try {
    return await files.readFile(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return Buffer.alloc(0);
    throw storageError(path, error);
  }
}

/** Copies both files into a new `repair-<time>` folder (never one an earlier repair made) and returns its path. */
async function backUp(
  files: FileOperations,
  folder: string,
  snapshot: Buffer,
  log: Buffer,
  counter: { bytesWritten: number },
): Promise<string> {
  const taken = new Set(await files.readdir(folder));
  const base = `repair-${new Date().toISOString().replaceAll(':', '-')}`;
  let name = base;
  for (let suffix = 2; taken.has(name); suffix++) name = `${base}-${suffix}`;
  const backup = join(folder, name);
  try {
    await files.mkdir(backup);
    // writeNew refuses a file that exists: an earlier backup is never overwritten.
    await files.writeNew(join(backup, snapshotFileName), snapshot);
    await files.writeNew(join(backup, logFileName), log);
    await files.syncDirectory(folder);
  } catch (error) {
    throw storageError(backup, error);
  }
  counter.bytesWritten += snapshot.length + log.length;
  return backup;
}
