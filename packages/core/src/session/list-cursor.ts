import type { SessionSummary } from './session-summary.js';

/** Newest `updatedAt` first, then by id: the order every store lists in. */
export function compareSummaries(left: SessionSummary, right: SessionSummary): number {
  if (left.updatedAt !== right.updatedAt) return left.updatedAt < right.updatedAt ? 1 : -1;
  return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
}

/**
 * Sorts summaries and cuts the page after `cursor`, so stores share one
 * pagination: the cursor names the last session of the previous page, and a
 * session saved meanwhile never makes another one appear twice.
 */
export function pageOfSummaries(
  summaries: SessionSummary[],
  options: { cursor?: string; limit?: number } = {},
): { sessions: SessionSummary[]; nextCursor?: string } {
  const limit = Math.max(1, options.limit ?? 50);
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

function encodeCursor(summary: SessionSummary): string {
  return `${encodeURIComponent(summary.updatedAt)}~${summary.id}`;
}

function decodeCursor(cursor: string): SessionSummary {
  const split = cursor.indexOf('~');
  return {
    id: cursor.slice(split + 1),
    updatedAt: decodeURIComponent(cursor.slice(0, Math.max(0, split))),
    createdAt: '',
    status: 'idle',
    version: 0,
    metadata: {},
    messageCount: 0,
    title: '',
    pendingApprovalCount: 0,
  };
}
