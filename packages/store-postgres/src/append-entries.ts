import {
  advanceSummary,
  type SessionEvent,
  SessionLeaseLostError,
  SessionNotFoundError,
  SessionStorageError,
} from '@agent-core/core';
import { AppendBatcher } from './append-batcher.js';
import type { SessionStatements } from './session-statements.js';
import { isConnectionFailure } from './storage-errors.js';
import type { StoreConnection } from './store-connection.js';
import { textColumn } from './stored-json.js';
import { type KnownSession, knownFromCurrent, type SummaryCache } from './summary-cache.js';

/** What `agent_core_append` answered for one item. */
export interface AppendOutcome {
  outcome: 'not_found' | 'done' | 'lease_lost' | 'moved' | 'appended';
  firstSeq: number;
  lastSeq: number;
  current: Record<string, unknown> | undefined;
}

/** One append as the store hands it over: entries, their JSON texts (serialised before any statement), and the lease. */
export interface AppendRequest {
  sessionId: string;
  operationId: string;
  entries: readonly SessionEvent[];
  /** `[` + each entry's `storedJson` + `]`. */
  eventsJson: string;
  token: string | undefined;
}

/** A session whose log moved this many times between two of our own statements is being written by something else in a loop. */
const maxAttempts = 50;

/** Appends through one batcher per store, keeping the summary cache current. */
export class AppendEntries {
  readonly #connection: StoreConnection;
  readonly #known: SummaryCache;
  readonly #batcher: AppendBatcher<AppendOutcome>;

  constructor(
    connection: StoreConnection,
    statements: SessionStatements,
    known: SummaryCache,
    options: { concurrency: number; maxBatch: number },
  ) {
    this.#connection = connection;
    this.#known = known;
    this.#batcher = new AppendBatcher<AppendOutcome>({
      concurrency: options.concurrency,
      maxBatch: options.maxBatch,
      // A dropped connection fails every item alike; anything else may be one item's data.
      retryAlone: (error) => !isConnectionFailure(error),
      run: async (itemsJson) => {
        const pool = await connection.ready();
        const { rows } = await pool.query({ text: statements.append, values: [itemsJson] });
        const outcomes = new Map<number, AppendOutcome>();
        for (const row of rows) {
          outcomes.set(Number(row.item_index), {
            outcome: row.outcome as AppendOutcome['outcome'],
            firstSeq: Number(row.item_first_seq),
            lastSeq: Number(row.item_last_seq),
            current: (row.current_summary ?? undefined) as Record<string, unknown> | undefined,
          });
        }
        return outcomes;
      },
    });
  }

  /**
   * Appends one request: computes the session's next summary from the one
   * known with `advanceSummary` and sends it with the entries; when the row
   * moved on (another process wrote), computes again from the current one. A
   * statement whose connection dropped is sent once more, which the
   * operation id makes safe.
   */
  async append(request: AppendRequest): Promise<{ firstSeq: number; lastSeq: number }> {
    let retriedConnection = false;
    for (let attempt = 0; attempt < maxAttempts; attempt++) {
      const known = this.#known.get(request.sessionId);
      const next = known === undefined ? undefined : advanceSummary({ ...known.summary }, request.entries);
      let answer: AppendOutcome;
      try {
        answer = await this.#batcher.submit(itemBody(request, known, next));
      } catch (error) {
        if (!retriedConnection && isConnectionFailure(error) && !this.#connection.closed) {
          retriedConnection = true;
          continue;
        }
        throw this.#connection.fail(error);
      }
      switch (answer.outcome) {
        case 'appended':
          if (known !== undefined && next !== undefined)
            this.#known.set(request.sessionId, { summary: next, logEnd: answer.lastSeq });
          return { firstSeq: answer.firstSeq, lastSeq: answer.lastSeq };
        case 'done':
          return { firstSeq: answer.firstSeq, lastSeq: answer.lastSeq };
        case 'not_found':
          this.#known.delete(request.sessionId);
          throw new SessionNotFoundError(request.sessionId, this.#connection.where);
        case 'lease_lost':
          throw new SessionLeaseLostError(
            request.sessionId,
            `its lease token is ${request.token}, and token ${String(answer.current?.leaseToken)} was granted since`,
          );
        case 'moved':
          this.#known.set(request.sessionId, knownFromCurrent(request.sessionId, answer.current ?? {}));
          break;
      }
    }
    throw new SessionStorageError(
      this.#connection.where,
      'locked',
      `session '${request.sessionId}' changed ${maxAttempts} times while this append was computing its summary`,
    );
  }
}

/** The item's JSON without its index. Without a known summary it is a probe: the function answers `moved` with the current one. */
function itemBody(
  request: AppendRequest,
  known: KnownSession | undefined,
  next: KnownSession['summary'] | undefined,
): string {
  const fields: Record<string, unknown> = {
    id: request.sessionId,
    op: request.operationId,
    token: request.token ?? null,
  };
  if (known === undefined || next === undefined)
    return JSON.stringify({ ...fields, after_seq: null, events: [] });
  const head = JSON.stringify({
    ...fields,
    after_seq: known.logEnd,
    version: known.summary.version,
    status: next.status,
    updated_at: textColumn(next.updatedAt),
    message_count: next.messageCount,
    title: textColumn(next.title),
    pending: next.pendingApprovalCount,
  });
  return `${head.slice(0, -1)},"events":${request.eventsJson}}`;
}
