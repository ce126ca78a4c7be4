import { ConfigError } from '../errors/config-error.js';
import type { SessionSummary } from './session-summary.js';

/** Newest `updatedAt` first, then by id: the order every store lists in. */
export function compareSummaries(left: SessionSummary, right: SessionSummary): number {
  if (left.updatedAt !== right.updatedAt) return left.updatedAt < right.updatedAt ? 1 : -1;
  return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
}

/**
 * Sorts summaries and cuts the page after `cursor`, so stores share one
 * pagination: the cursor names the last session of the previous page, and a
 * session saved meanwhile never makes another one appear twice. A `limit`
 * that is not a number, or a cursor no page gave, is a `ConfigError`.
 */
export function pageOfSummaries(
  summaries: SessionSummary[],
  options: { cursor?: string; limit?: number } = {},
): { sessions: SessionSummary[]; nextCursor?: string } {
  const limit = Math.max(1, pageLimit(options.limit));
  summaries.sort(compareSummaries);
  let start = 0;
  if (options.cursor !== undefined) {
    const after = decodeCursor(options.cursor);
    while (start < summaries.length && compareSummaries(summaries[start] as SessionSummary, after) <= 0)
      start++;
  }
  const sessions = summaries.slice(start, start + limit);
  const last = sessions.at(-1);
  if (start + limit >= summaries.length || last === undefined) return { sessions };
  return { sessions, nextCursor: encodeCursor(last) };
}

/** The page size: 50 when left out; a value that is not a number is a `ConfigError`. */
function pageLimit(limit: unknown): number {
  if (limit === undefined) return 50;
  if (typeof limit !== 'number' || Number.isNaN(limit))
    throw new ConfigError(
      `list's limit must be a number of sessions, got ${JSON.stringify(limit) ?? typeof limit}.`,
    );
  return limit;
}

function encodeCursor(summary: SessionSummary): string {
  return `${encodeURIComponent(summary.updatedAt)}~${summary.id}`;
}

/** The last session of the previous page, from its cursor; anything no page gave is a `ConfigError`. */
function decodeCursor(cursor: unknown): SessionSummary {
  const split = typeof cursor === 'string' ? cursor.indexOf('~') : -1;
  let updatedAt: string | undefined;
  try {
    if (split >= 0) updatedAt = decodeURIComponent((cursor as string).slice(0, split));
  } catch {}
  if (updatedAt === undefined)
    throw new ConfigError(
      `list's cursor must be the nextCursor of an earlier page, got ${JSON.stringify(cursor) ?? typeof cursor}.`,
    );
  return {
    id: (cursor as string).slice(split + 1),
    updatedAt,
    createdAt: '',
    status: 'idle',
    version: 0,
    metadata: {},
    messageCount: 0,
    title: '',
    pendingApprovalCount: 0,
  };
}
