import {
  isModelMessage,
  messageText,
  restoreSession,
  type SessionState,
  type SessionStore,
  type SessionSummary,
} from '@agent-core/core';
import type { Output } from './render-events.js';

/** One line of `sessions list`: a stored session with its log replayed. */
interface ListedSession {
  id: string;
  updatedAt: string;
  status: string;
  messages: number;
  title: string;
}

/**
 * Prints the stored sessions, newest first: id, last update, status, message
 * count and title (the first prompt). Each session's events log is replayed,
 * read only, so the count and time include the latest runs, not only the
 * last snapshot. A session that cannot be read is reported through the
 * store's logger and left out.
 */
export async function listSessions(store: SessionStore, out: Output, root: string): Promise<void> {
  const summaries: SessionSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list(cursor === undefined ? {} : { cursor });
    summaries.push(...page.sessions);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const listed: ListedSession[] = [];
  for (const summary of summaries) {
    try {
      listed.push(describe((await restoreSession(store, summary.id)).state));
    } catch {
      // Listed a moment ago and gone or unreadable now: the store has already warned.
    }
  }
  if (listed.length === 0) {
    out.write(`No stored sessions in ${root}. Start one with: agent-core --session new\n`);
    return;
  }
  listed.sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : 0));
  const width = Math.max(...listed.map((session) => session.id.length));
  out.write(`${'id'.padEnd(width)}  updated                   status       messages  title\n`);
  for (const session of listed) {
    out.write(
      `${session.id.padEnd(width)}  ${session.updatedAt.padEnd(24)}  ${session.status.padEnd(11)}  ${String(session.messages).padStart(8)}  ${session.title}\n`,
    );
  }
}

function describe(state: SessionState): ListedSession {
  const first = state.messages.find((message) => isModelMessage(message) && message.role === 'user');
  const text = first !== undefined && isModelMessage(first) ? messageText(first) : '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return {
    id: state.id,
    updatedAt: state.updatedAt,
    status: state.status,
    messages: state.messages.length,
    title: flat === '' ? '(no prompt yet)' : flat.length > 60 ? `${flat.slice(0, 57)}...` : flat,
  };
}
