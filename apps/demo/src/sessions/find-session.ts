import { ConfigError, type SessionSummary } from '@agent-core/core';
import { listPageSize } from './list-page-size.js';
import type { OpenedStore } from './open-store.js';

/** How many candidates an ambiguous prefix names. */
const shownCandidates = 10;
/** The ids the CLI gives its sessions. */
const wholeId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The stored session an id names: the id itself, or the one session whose id
 * starts with it (so a person types `5970a4`, not a whole UUID), with its
 * summary, whose status is the one `sessions list` shows. An id no summary
 * matches is returned as given, for the store to load or to say it has none;
 * a prefix of several ids is a `ConfigError` naming them. With `summary:
 * false`, a whole UUID is taken as it is, without a search.
 */
export async function findSession(
  opened: OpenedStore,
  given: string,
  options: { summary?: boolean } = {},
): Promise<{ id: string; summary?: SessionSummary }> {
  // A whole id needs no search unless its summary is wanted: thousands of stored sessions are not walked.
  if (options.summary === false && wholeId.test(given)) return { id: given };
  const matches: SessionSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await opened.store.list(
      cursor === undefined ? { limit: listPageSize } : { cursor, limit: listPageSize },
    );
    for (const summary of page.sessions) {
      if (summary.id === given) return { id: given, summary };
      if (summary.id.startsWith(given)) matches.push(summary);
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const [only] = matches;
  if (only === undefined || given === '') return { id: given };
  if (matches.length === 1) return { id: only.id, summary: only };
  const shown = matches
    .slice(0, shownCandidates)
    .map((summary) => `${summary.id} (${summary.title || 'no prompt yet'})`);
  const more = matches.length > shownCandidates ? `, and ${matches.length - shownCandidates} more` : '';
  throw new ConfigError(
    `'${given}' is the start of ${matches.length} session ids: ${shown.join(', ')}${more}. Give more of the id.`,
  );
}
