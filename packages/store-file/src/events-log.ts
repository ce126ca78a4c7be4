import type { Logger, SessionLogRecord } from '@agent-core/core';
import type { FileOperations } from './file-operations.js';
import { errorCode } from './storage-error.js';

/** What a session's `events.jsonl` holds, read once and then kept current by appends. */
export interface LogIndex {
  lastSeq: number;
  operations: Map<string, { firstSeq: number; lastSeq: number }>;
  /** The file's length as this index knows it: another length means another process wrote to it. */
  bytes: number;
}

/**
 * Reads `events.jsonl`. A last line without its newline is a crash in the
 * middle of an append: its bytes are moved to `events.jsonl.corrupt-<time>`,
 * the file is cut back to its last complete line (never rewritten, never
 * emptied) and the logger warns. While `mayCut()` says no (another live
 * process runs the session, so the line may be its append in progress), the
 * line is only left out of what this read returns. A complete line that is
 * not a record is skipped with a warning. Returns the records and the index of the log.
 */
export async function readEventsLog(
  path: string,
  operations: FileOperations,
  logger: Logger,
  counter: { bytesWritten: number },
  mayCut: () => Promise<boolean>,
): Promise<{ records: SessionLogRecord[]; index: LogIndex }> {
  let bytes: Buffer;
  try {
    bytes = await operations.readFile(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT')
      return { records: [], index: { lastSeq: 0, operations: new Map(), bytes: 0 } };
    throw error;
  }
  const end = bytes.lastIndexOf(0x0a) + 1;
  if (end < bytes.length && (await mayCut())) {
    const aside = `${path}.corrupt-${new Date().toISOString().replaceAll(':', '-')}`;
    const torn = bytes.subarray(end);
    await operations.writeNew(aside, torn);
    await operations.truncate(path, end);
    counter.bytesWritten += torn.length;
    logger.warn('the last line of an events log was torn (a crash during an append); it was moved aside', {
      path,
      movedTo: aside,
      bytes: torn.length,
    });
  }
  const records: SessionLogRecord[] = [];
  const index: LogIndex = { lastSeq: 0, operations: new Map(), bytes: end };
  const lines = bytes.subarray(0, end).toString('utf8').split('\n');
  for (let number = 0; number < lines.length; number++) {
    const line = lines[number] as string;
    if (line === '') continue;
    let record: SessionLogRecord;
    try {
      record = JSON.parse(line) as SessionLogRecord;
      if (typeof record.seq !== 'number' || typeof record.event?.type !== 'string')
        throw new Error('not a record');
    } catch (error) {
      logger.warn('an events log line is not a record; it was skipped', {
        path,
        line: number + 1,
        error: String(error),
      });
      continue;
    }
    records.push(record);
    index.lastSeq = record.seq;
    const known = index.operations.get(record.operationId);
    if (known === undefined)
      index.operations.set(record.operationId, { firstSeq: record.seq, lastSeq: record.seq });
    else known.lastSeq = record.seq;
  }
  return { records, index };
}
