import { replayRecords } from '@agent-core/core';
import type { ViewApproval } from '../../shared/studio-data.js';
import type { StudioContext } from '../studio-context.js';
import { describeError } from '../view/describe-error.js';
import { viewApproval } from '../view/view-approval.js';

/** Sessions read for one inbox: past this the inbox says how many more wait. */
const inboxSessionLimit = 200;
const readConcurrency = 4;

/**
 * Every call waiting for a decision in any stored session: the summaries say
 * which sessions wait, and only those are read (snapshot and the log after
 * it). A session that cannot be read is named with the store's error, and the
 * rest of the inbox still shows.
 */
export async function readApprovals(
  studio: StudioContext,
): Promise<{ approvals: ViewApproval[]; problems: { sessionId: string; message: string }[]; more: number }> {
  const waiting = studio.index.waiting();
  const shown = waiting.slice(0, inboxSessionLimit);
  const found: ViewApproval[][] = new Array(shown.length);
  const problems: { sessionId: string; message: string }[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < shown.length) {
      const index = next++;
      const row = shown[index] as (typeof shown)[number];
      try {
        const state = await studio.store.load(row.id);
        replayRecords(state, await studio.store.read(row.id, { fromSeq: state.lastSeq + 1 }));
        found[index] = state.pendingApprovals.map((approval) => viewApproval(row, approval, studio.redactor));
      } catch (error) {
        if ((error as { code?: unknown }).code === 'session_not_found') continue;
        problems.push({ sessionId: row.id, message: describeError(error, studio.redactor) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(readConcurrency, shown.length) }, worker));
  return { approvals: found.flatMap((list) => list ?? []), problems, more: waiting.length - shown.length };
}
