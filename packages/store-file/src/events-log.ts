import { type Logger, SessionCorruptError, type SessionLogRecord } from '@agent-core/core';
import { checkReplayedMessages } from './check-replayed-messages.js';
import type { FileOperations } from './file-operations.js';
import { type LogLine, parseLogLines } from './log-lines.js';
import { errorCode } from './storage-error.js';

/** What a session's `events.jsonl` holds, read once and then kept current by appends. */
export interface LogIndex {
  lastSeq: number;
  operations: Map<string, { firstSeq: number; lastSeq: number }>;
  /** The file's length as this index knows it: another length means another process wrote to it. */
  bytes: number;
}

/** Options of `readEventsLog`. */
export interface ReadLogOptions {
  sessionId: string;
  /** The seq of the last record `session.json` includes: damage after it is fatal, before it a warning. */
  snapshotLastSeq: number;
  logger: Logger;
  /**
   * Whether a torn last line may be cut now (no other live process runs the
   * session, so it is not an append in progress). Without it the read only
   * leaves the line out: `list` and `save` change no log.
   */
  mayCut?: () => Promise<boolean>;
  /** Counts the bytes moved aside. */
  counter?: { bytesWritten: number };
}

/** How to get out of a damaged log, for every error that reports one. */
export function repairAdvice(sessionId: string): string {
  return `Repair the session with FileSessionStore.repair('${sessionId}') (from the command line: agent-core sessions repair ${sessionId}): it keeps a backup of session.json and events.jsonl and cuts the session back to its last consistent point.`;
}

/** The error for a log that ends before the records its snapshot says it holds. */
export function missingRecordsError(
  path: string,
  sessionId: string,
  logLastSeq: number,
  snapshotLastSeq: number,
): SessionCorruptError {
  const where = logLastSeq === 0 ? 'holds no record' : `ends at seq ${logLastSeq}`;
  return new SessionCorruptError(
    path,
    `it ${where}, but session.json includes records up to seq ${snapshotLastSeq}: ${missing(logLastSeq + 1, snapshotLastSeq)} (the log was truncated, replaced or deleted), so records appended now would be numbered behind the snapshot and lost on the next load. ${repairAdvice(sessionId)}`,
  );
}

/** `record 4 is missing`, `records 4 to 6 are missing`. */
function missing(first: number, last: number): string {
  return first === last ? `record ${first} is missing` : `records ${first} to ${last} are missing`;
}

/**
 * Reads `events.jsonl` and checks it against the snapshot's `lastSeq`:
 * - a last line without its newline is a crash in the middle of an append:
 *   when `mayCut()` allows, its bytes are moved to
 *   `events.jsonl.corrupt-<time>` and the file is cut back to its last
 *   complete line (never rewritten, never emptied), with a warning;
 *   otherwise it is only left out;
 * - a complete line that is not a record, or a gap or a repeat in the seqs,
 *   after the snapshot's `lastSeq` (in the part a load replays) throws
 *   `SessionCorruptError` naming the file and the line; before it the
 *   snapshot holds that history, so it warns and goes on;
 * - a log that ends before the snapshot's `lastSeq` throws `SessionCorruptError`.
 * Returns the records in order and the index of the log.
 */
export async function readEventsLog(
  path: string,
  files: FileOperations,
  options: ReadLogOptions,
): Promise<{ records: SessionLogRecord[]; index: LogIndex }> {
  let bytes: Buffer;
  try {
    bytes = await files.readFile(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    bytes = Buffer.alloc(0);
  }
  const end = bytes.lastIndexOf(0x0a) + 1;
  if (end < bytes.length && options.mayCut !== undefined && (await options.mayCut())) {
    const aside = `${path}.corrupt-${new Date().toISOString().replaceAll(':', '-')}`;
    const torn = bytes.subarray(end);
    await files.writeNew(aside, torn);
    await files.truncate(path, end);
    if (options.counter !== undefined) options.counter.bytesWritten += torn.length;
    options.logger.warn(
      'the last line of an events log was torn (a crash during an append); it was moved aside',
      { path, movedTo: aside, bytes: torn.length },
    );
  }
  const records: SessionLogRecord[] = [];
  const index: LogIndex = { lastSeq: 0, operations: new Map(), bytes: end };
  const checker = new SeqChecker(options.snapshotLastSeq);
  const lines = new Map<SessionLogRecord, number>();
  for (const line of parseLogLines(bytes.subarray(0, end))) {
    const verdict = checker.check(line);
    if (verdict.kind === 'fatal') throw damagedLogError(path, options.sessionId, verdict.detail);
    if (verdict.kind === 'covered') {
      options.logger.warn(verdict.message, { path, ...verdict.fields });
      continue;
    }
    if (verdict.gap !== undefined)
      options.logger.warn('records the snapshot holds are missing from the events log', {
        path,
        line: line.line,
        missing: verdict.gap,
      });
    const record = verdict.record;
    records.push(record);
    lines.set(record, line.line);
    index.lastSeq = record.seq;
    const known = index.operations.get(record.operationId);
    if (known === undefined)
      index.operations.set(record.operationId, { firstSeq: record.seq, lastSeq: record.seq });
    else known.lastSeq = record.seq;
  }
  if (index.lastSeq < options.snapshotLastSeq)
    throw missingRecordsError(path, options.sessionId, index.lastSeq, options.snapshotLastSeq);
  const replayed = records.filter((record) => record.seq > options.snapshotLastSeq);
  const invalid = await checkReplayedMessages(replayed);
  if (invalid !== undefined) {
    const record = replayed[invalid.position] as SessionLogRecord;
    throw damagedLogError(
      path,
      options.sessionId,
      `line ${lines.get(record)} (seq ${record.seq}) ${invalid.problem}; it comes past seq ${options.snapshotLastSeq}, the last one session.json includes`,
    );
  }
  return { records, index };
}

/** What `SeqChecker` makes of a line: the next record, a line the snapshot covers (reported, left out), or damage it does not cover. */
export type SeqVerdict =
  | {
      kind: 'record';
      record: SessionLogRecord /** Seqs missing before it that the snapshot holds, not yet reported. */;
      gap?: string;
    }
  | { kind: 'covered'; message: string; fields: Record<string, unknown> }
  | { kind: 'fatal'; detail: string };

/**
 * Follows a log's seqs line by line against the snapshot's `lastSeq`: what
 * is the next record, what is damage the snapshot covers (the history it
 * stood for is in `session.json`), and what is damage in the part a load
 * replays. Reads throw for the last; a repair cuts the log there.
 */
export class SeqChecker {
  readonly #covered: number;
  #previous = 0;
  /** Lines since the previous record that were not records: the seqs they stood for were already reported. */
  #damaged = 0;

  constructor(snapshotLastSeq: number) {
    this.#covered = snapshotLastSeq;
  }

  /** The seq of the last record accepted; 0 before any. */
  get lastSeq(): number {
    return this.#previous;
  }

  check(line: LogLine): SeqVerdict {
    const covered = this.#covered;
    if (line.record === undefined) {
      // The line most likely held the record after the previous one: fatal unless the snapshot includes that seq.
      if (this.#previous + this.#damaged + 1 > covered)
        return {
          kind: 'fatal',
          detail: `line ${line.line} is not a log record (${line.problem}); it comes after seq ${this.#previous}, past seq ${covered}, the last one session.json includes`,
        };
      this.#damaged++;
      return {
        kind: 'covered',
        message: 'an events log line is not a record; the snapshot holds that part of the history',
        fields: { line: line.line, problem: line.problem },
      };
    }
    const seq = line.record.seq;
    const expected = this.#previous + 1;
    if (seq < expected) {
      if (seq > covered)
        return {
          kind: 'fatal',
          detail: `line ${line.line} repeats seq ${seq} after seq ${this.#previous} (two writers numbered the same records)`,
        };
      return {
        kind: 'covered',
        message: 'an events log line repeats a seq the snapshot holds; it was skipped',
        fields: { line: line.line, seq },
      };
    }
    if (seq > expected && seq - 1 > covered)
      return {
        kind: 'fatal',
        detail: `line ${line.line} has seq ${seq}, but the record before it has seq ${this.#previous}: ${missing(expected, seq - 1)}`,
      };
    const unreported = seq - expected > this.#damaged;
    this.#previous = seq;
    this.#damaged = 0;
    return unreported
      ? { kind: 'record', record: line.record, gap: missing(expected, seq - 1) }
      : { kind: 'record', record: line.record };
  }
}

/** The error for damage a read cannot go past, naming the file and the line. */
export function damagedLogError(path: string, sessionId: string, detail: string): SessionCorruptError {
  return new SessionCorruptError(
    path,
    `${detail}, so the history after it cannot be rebuilt. ${repairAdvice(sessionId)}`,
  );
}
