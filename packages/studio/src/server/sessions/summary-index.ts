import type { Logger, SessionStore, SessionSummary } from '@agent-core/core';
import type { SessionListPage, SessionRow } from '../../shared/studio-data.js';
import type { Redactor } from '../view/redactor.js';
import { describeError } from '../view/describe-error.js';

/** Summaries one `list` call asks for while indexing: a file store reads every folder per call, so few calls. */
const indexPageSize = 100_000;

interface IndexedRow extends SessionRow {
  /** The id and the title in lower case, what a search looks in. */
  searchText: string;
}

/** Options of `SummaryIndex`. */
export interface SummaryIndexOptions {
  /** Never refresh more often than this. */
  minimumAgeMs: number;
  logger: Logger;
  redactor: Redactor;
}

/**
 * Every session's summary, read from the store's `list` and kept in memory
 * so the list pages and searches by title or id in milliseconds whatever the
 * store (a file store reads every session folder for each `list` call). It is
 * refreshed on demand, never on a timer: a request finds it older than
 * `minimumAgeMs` (and than four times its last refresh, so refreshing takes
 * at most a fifth of the time) and starts one refresh in the background,
 * answering from the previous one meanwhile. Before the first refresh ends,
 * pages without a search come from the store's own `list`.
 */
export class SummaryIndex {
  readonly #store: SessionStore;
  readonly #options: SummaryIndexOptions;
  #rows: IndexedRow[] = [];
  #byId = new Map<string, IndexedRow>();
  #indexedAt: string | undefined;
  #refreshedAt = 0;
  #lastDurationMs = 0;
  #refreshing: Promise<void> | undefined;
  #error: string | undefined;

  constructor(store: SessionStore, options: SummaryIndexOptions) {
    this.#store = store;
    this.#options = options;
  }

  /** Whether a first refresh has ended. */
  get ready(): boolean {
    return this.#indexedAt !== undefined;
  }

  /** The store's error from the last refresh, if it failed. */
  get error(): string | undefined {
    return this.#error;
  }

  /** Starts a refresh when the index is due for one; resolves when that refresh ends (at once if none ran). */
  refreshIfDue(): Promise<void> {
    const age = Date.now() - this.#refreshedAt;
    if (this.#refreshing !== undefined) return this.#refreshing;
    if (this.ready && age < Math.max(this.#options.minimumAgeMs, this.#lastDurationMs * 4))
      return Promise.resolve();
    return this.refresh();
  }

  /** Reads every summary from the store again; one refresh at a time, a failure kept as `error`. */
  refresh(): Promise<void> {
    if (this.#refreshing !== undefined) return this.#refreshing;
    const started = Date.now();
    this.#refreshing = this.#readAll()
      .then(
        (rows) => {
          this.#rows = rows;
          this.#byId = new Map(rows.map((row) => [row.id, row]));
          this.#indexedAt = new Date().toISOString();
          this.#error = undefined;
        },
        (error: unknown) => {
          this.#error = describeError(error, this.#options.redactor);
          this.#options.logger.warn('the studio could not list the stored sessions', { error: this.#error });
        },
      )
      .finally(() => {
        this.#lastDurationMs = Date.now() - started;
        this.#refreshedAt = Date.now();
        this.#refreshing = undefined;
      });
    return this.#refreshing;
  }

  /** A session's row as last indexed. */
  get(id: string): SessionRow | undefined {
    return this.#byId.get(id);
  }

  /** Sessions with calls waiting for a decision, newest first. */
  waiting(): SessionRow[] {
    return this.#rows.filter((row) => row.pendingApprovalCount > 0 || row.status === 'await_user');
  }

  /** One page, newest first, of the sessions whose id or title contains `query` (any case). */
  async page(options: { query?: string; cursor?: string; limit: number }): Promise<SessionListPage> {
    const query = (options.query ?? '').trim().toLowerCase();
    if (!this.ready && query === '') {
      const page = await this.#store.list({
        limit: options.limit,
        ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
      });
      return {
        sessions: page.sessions.map((summary) => rowOf(summary, this.#options.redactor)),
        ...(page.nextCursor === undefined ? {} : { nextCursor: page.nextCursor }),
        matched: page.sessions.length,
        indexedAt: new Date().toISOString(),
      };
    }
    if (!this.ready) await this.refresh();
    if (!this.ready) throw new Error(this.#error ?? 'the sessions could not be listed');
    const rows = query === '' ? this.#rows : this.#rows.filter((row) => row.searchText.includes(query));
    const start = options.cursor === undefined ? 0 : firstAfter(rows, decodeCursor(options.cursor));
    const sessions = rows.slice(start, start + options.limit);
    const last = sessions.at(-1);
    const page: SessionListPage = {
      sessions: sessions.map(({ searchText: _searchText, ...row }) => row),
      matched: rows.length,
      indexedAt: this.#indexedAt as string,
    };
    if (last !== undefined && start + options.limit < rows.length) page.nextCursor = encodeCursor(last);
    if (this.#error !== undefined) page.storeError = this.#error;
    return page;
  }

  async #readAll(): Promise<IndexedRow[]> {
    const rows: IndexedRow[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.#store.list(
        cursor === undefined ? { limit: indexPageSize } : { cursor, limit: indexPageSize },
      );
      for (const summary of page.sessions) {
        const row = rowOf(summary, this.#options.redactor);
        rows.push({ ...row, searchText: `${row.id}\n${row.title}`.toLowerCase() });
      }
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    rows.sort(compareRows);
    return rows;
  }
}

/** A summary as a list row: no metadata, the title redacted. */
export function rowOf(summary: SessionSummary, redactor: Redactor): SessionRow {
  return {
    id: summary.id,
    title: redactor.text(summary.title),
    status: summary.status,
    createdAt: summary.createdAt,
    updatedAt: summary.updatedAt,
    messageCount: summary.messageCount,
    pendingApprovalCount: summary.pendingApprovalCount,
    version: summary.version,
  };
}

/** Newest first, then by id: the order every store lists in. */
function compareRows(
  left: { updatedAt: string; id: string },
  right: { updatedAt: string; id: string },
): number {
  if (left.updatedAt !== right.updatedAt) return left.updatedAt < right.updatedAt ? 1 : -1;
  return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
}

/** The index of the first row after `after` in `rows` (sorted): a binary search. */
function firstAfter(rows: readonly IndexedRow[], after: { updatedAt: string; id: string }): number {
  let low = 0;
  let high = rows.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareRows(rows[middle] as IndexedRow, after) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

// The stores' own cursor format, so a cursor from the store's list and one from the index both work.
function encodeCursor(row: SessionRow): string {
  return `${encodeURIComponent(row.updatedAt)}~${row.id}`;
}

function decodeCursor(cursor: string): { updatedAt: string; id: string } {
  const split = cursor.indexOf('~');
  if (split < 0) return { updatedAt: '', id: '' };
  try {
    return { updatedAt: decodeURIComponent(cursor.slice(0, split)), id: cursor.slice(split + 1) };
  } catch {
    return { updatedAt: '', id: '' };
  }
}
