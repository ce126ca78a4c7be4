import {
  ConfigError,
  type ListSessionsOptions,
  type SessionPage,
  type SessionSummary,
} from '@agent-core/core';
import type { SessionStatements } from './session-statements.js';
import type { StoreConnection } from './store-connection.js';
import { fromStoredJson, textColumn } from './stored-json.js';

/** Postgres takes a LIMIT up to 2^63; a page is a JavaScript array, so far less. */
const largestPage = 1_000_000;

/**
 * One page of summaries, newest `updatedAt` first, ties by id in code unit
 * order (both columns are `COLLATE "C"`), read from the summary columns and
 * the `(updated_at DESC, id)` index alone, never a history. The cursor names
 * the last session of the page, as core's stores write it, so a session saved
 * between two pages never makes another one appear twice.
 */
export async function listSessions(
  connection: StoreConnection,
  statements: SessionStatements,
  options: ListSessionsOptions = {},
): Promise<SessionPage> {
  const limit = pageLimit(options.limit);
  // One row more than the page tells whether another page follows.
  const { rows } =
    options.cursor === undefined
      ? await connection.query({ text: statements.listFirst, values: [limit + 1] }, { idempotent: true })
      : await connection.query(
          { text: statements.listAfter, values: [...decodeCursor(options.cursor), limit + 1] },
          { idempotent: true },
        );
  const sessions = rows.slice(0, limit).map(summaryOfRow);
  const last = sessions.at(-1);
  if (rows.length <= limit || last === undefined) return { sessions };
  return { sessions, nextCursor: encodeCursor(last) };
}

function pageLimit(limit: number | undefined): number {
  if (limit === undefined) return 50;
  if (typeof limit !== 'number' || Number.isNaN(limit)) {
    throw new ConfigError(`list's limit must be a number of sessions, got ${JSON.stringify(limit)}.`);
  }
  return Math.min(largestPage, Math.max(1, Math.floor(limit)));
}

function summaryOfRow(row: Record<string, unknown>): SessionSummary {
  return {
    id: row.id as string,
    status: row.status as SessionSummary['status'],
    createdAt: row.created_at as string,
    updatedAt: row.updated_at as string,
    version: Number(row.version),
    metadata: fromStoredJson(row.metadata) as Record<string, unknown>,
    messageCount: Number(row.message_count),
    title: row.title as string,
    pendingApprovalCount: Number(row.pending_approval_count),
  };
}

/** The cursor of core's stores: the last session's `updatedAt`, URI-encoded, `~`, its id. */
function encodeCursor(summary: SessionSummary): string {
  return `${encodeURIComponent(summary.updatedAt)}~${summary.id}`;
}

function decodeCursor(cursor: unknown): [string, string] {
  const split = typeof cursor === 'string' ? cursor.indexOf('~') : -1;
  if (typeof cursor !== 'string' || split < 0) {
    throw new ConfigError(
      `list's cursor must be the nextCursor of an earlier page, got ${JSON.stringify(cursor)}.`,
    );
  }
  let updatedAt: string;
  try {
    updatedAt = decodeURIComponent(cursor.slice(0, split));
  } catch {
    throw new ConfigError(
      `list's cursor must be the nextCursor of an earlier page, got ${JSON.stringify(cursor)}.`,
    );
  }
  // Text columns hold no NUL: the stored times and ids went through the same replacement.
  return [textColumn(updatedAt), textColumn(cursor.slice(split + 1))];
}
