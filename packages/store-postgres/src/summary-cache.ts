import type { SessionSummary } from '@agent-core/core';
import { fromStoredJson } from './stored-json.js';

/** What this process last wrote or read of a session: its stored summary (status as stored) and the last seq of its log. */
export interface KnownSession {
  summary: SessionSummary;
  logEnd: number;
}

/**
 * The summaries this store last wrote or read, most recently used last,
 * bounded. An append computes its summary from the one here with core's
 * `advanceSummary` and writes it only if the row still has that log end and
 * version; otherwise the statement answers with the current one and the
 * append computes again. So an append within a run is one statement.
 */
export class SummaryCache {
  readonly #entries = new Map<string, KnownSession>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get(id: string): KnownSession | undefined {
    const known = this.#entries.get(id);
    if (known !== undefined) {
      this.#entries.delete(id);
      this.#entries.set(id, known);
    }
    return known;
  }

  set(id: string, known: KnownSession): void {
    this.#entries.delete(id);
    this.#entries.set(id, known);
    if (this.#entries.size > this.#limit) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  delete(id: string): void {
    this.#entries.delete(id);
  }
}

/** The summary and log end in a row of `agent_core_sessions` (columns as stored, status not adjusted for leases). */
export function knownFromRow(id: string, row: Record<string, unknown>): KnownSession {
  return {
    summary: {
      id,
      status: row.status as SessionSummary['status'],
      createdAt: row.created_at as string,
      updatedAt: row.updated_at as string,
      version: Number(row.version),
      metadata: fromStoredJson(row.metadata) as Record<string, unknown>,
      messageCount: Number(row.message_count),
      title: row.title as string,
      pendingApprovalCount: Number(row.pending_approval_count),
    },
    logEnd: Number(row.log_end_seq),
  };
}

/** The same from the `current_summary` object `agent_core_append` answers `moved` with. */
export function knownFromCurrent(id: string, current: Record<string, unknown>): KnownSession {
  return knownFromRow(id, {
    status: current.status,
    created_at: current.createdAt,
    updated_at: current.updatedAt,
    version: current.version,
    metadata: current.metadata,
    message_count: current.messageCount,
    title: current.title,
    pending_approval_count: current.pendingApprovalCount,
    log_end_seq: current.logEnd,
  });
}
