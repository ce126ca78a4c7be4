import {
  advanceSummary,
  type SessionEvent,
  type SessionLogRecord,
  type SessionSummary,
} from '@agent-core/core';
import type { LogIndex } from './events-log.js';
import type { SnapshotFacts } from './snapshot-file.js';
import type { SummaryFile } from './session-summary-file.js';

/**
 * What a store keeps in memory about a session it read or wrote: the
 * snapshot's facts, the log's index, and the summary of both, kept current by
 * every save and append of this store, so neither `list` nor a write needs
 * to replay a log. It is current while `session.json` and `events.jsonl`
 * still have the lengths it knows; another length means another process wrote.
 */
export interface TrackedSession {
  snapshot: SnapshotFacts;
  log: LogIndex;
  /** The snapshot's summary with every log record after its `lastSeq` folded in, as of `log.bytes`. */
  summary: SessionSummary;
}

/** A tracked session from a snapshot and the log's records, folding in those after the snapshot's `lastSeq`. */
export function trackSession(
  snapshot: SnapshotFacts,
  log: LogIndex,
  records: readonly SessionLogRecord[],
): TrackedSession {
  const summary = copySummary(snapshot.summary);
  const events: SessionEvent[] = [];
  for (const record of records) if (record.seq > snapshot.lastSeq) events.push(record.event);
  advanceSummary(summary, events);
  return { snapshot, log, summary };
}

/** A copy of a summary that shares nothing with it, so whoever gets it may change it. */
export function copySummary(summary: SessionSummary): SessionSummary {
  return { ...summary, metadata: structuredClone(summary.metadata) };
}

/**
 * Whether appending `entries` changes a session's status, time or approvals
 * waiting: a run's start or end. Those appends rewrite `summary.json`; the
 * others only add messages, which `list` counts from the log after it.
 */
export function changesStatus(entries: readonly SessionEvent[]): boolean {
  for (const entry of entries) if (entry.type === 'run_started' || entry.type === 'run_ended') return true;
  return false;
}

/** The content of `summary.json` for what `tracked` knows now. */
export function summaryFileOf(tracked: TrackedSession): SummaryFile {
  return {
    version: tracked.summary.version,
    snapshotBytes: tracked.snapshot.bytes,
    logBytes: tracked.log.bytes,
    logSeq: tracked.log.lastSeq,
    summary: tracked.summary,
  };
}
