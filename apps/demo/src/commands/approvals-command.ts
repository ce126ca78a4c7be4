import { restoreSession, type SessionStore, type SessionSummary } from '@agent-core/core';
import { pendingLines } from '../approvals/pending-lines.js';
import { exitCodes } from '../exit-codes.js';
import type { OutputStream, Style } from '../output/terminal-style.js';
import { age } from './sessions-commands.js';
import { listPageSize } from '../sessions/list-page-size.js';

/**
 * `approvals`: every stored session waiting for a decision and its calls
 * (tool, risk, input, the policy's reason). The summaries say which sessions
 * wait; only those are read, read only.
 */
export async function approvalsCommand(
  store: SessionStore,
  out: OutputStream,
  style: Style,
  now = Date.now(),
  json = false,
): Promise<number> {
  const waiting: SessionSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.list(
      cursor === undefined ? { limit: listPageSize } : { cursor, limit: listPageSize },
    );
    waiting.push(...page.sessions.filter((summary) => summary.status === 'await_user'));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  let shown = 0;
  const documents: unknown[] = [];
  for (const summary of waiting) {
    let approvals: Awaited<ReturnType<typeof restoreSession>>['state']['pendingApprovals'];
    try {
      approvals = (await restoreSession(store, summary.id)).state.pendingApprovals;
    } catch {
      continue; // Deleted or unreadable since it was listed: the store has warned.
    }
    if (approvals.length === 0) continue; // Decided since its summary was written.
    shown++;
    if (json) {
      documents.push({
        id: summary.id,
        title: summary.title,
        updatedAt: summary.updatedAt,
        approvals: approvals.map((approval) => ({
          toolCallId: approval.toolCallId,
          toolName: approval.toolName,
          risk: approval.risk,
          input: approval.input,
          reason: approval.reason,
          ...(approval.agentPath.length > 0 ? { agentPath: approval.agentPath } : {}),
        })),
      });
      continue;
    }
    out.write(
      `${style.bold(`session ${summary.id}`)}  ${summary.title || '(no prompt)'}  ${style.dim(`(${age(summary.updatedAt, now)})`)}\n`,
    );
    out.write(pendingLines(approvals, style));
  }
  if (json) {
    out.write(`${JSON.stringify({ sessions: documents }, null, 2)}\n`);
    return exitCodes.completed;
  }
  if (shown === 0) {
    out.write('No session is waiting for a decision.\n');
    return exitCodes.completed;
  }
  out.write(`Decide with: agent-core approve SESSION [CALL...]  (or --deny [--reason TEXT])\n`);
  return exitCodes.completed;
}
