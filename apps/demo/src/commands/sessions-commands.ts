import type { SessionRepairReport } from '@agent-core/store-file';
import {
  AgentError,
  isModelMessage,
  messageText,
  restoreSession,
  SessionManager,
  type SessionStore,
  type SessionSummary,
} from '@agent-core/core';
import { exitCodes } from '../exit-codes.js';
import { preview } from '../output/render-events.js';
import type { OutputStream, Style } from '../output/terminal-style.js';
import type { OpenedStore } from '../sessions/open-store.js';
import { listPageSize } from '../sessions/list-page-size.js';

/**
 * `sessions list`: the newest sessions (50 unless `--limit` or `--all`) from
 * the store's summaries alone: id, status, age, messages and title. No
 * session is loaded or replayed, so listing stays fast with thousands.
 */
export async function listSessions(
  opened: OpenedStore,
  limit: number,
  out: OutputStream,
  now = Date.now(),
): Promise<number> {
  const summaries: SessionSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await opened.store.list({
      ...(cursor === undefined ? {} : { cursor }),
      limit: Math.min(listPageSize, limit - summaries.length),
    });
    summaries.push(...page.sessions);
    cursor = page.nextCursor;
  } while (cursor !== undefined && summaries.length < limit);
  if (summaries.length === 0) {
    out.write(
      `No stored sessions in ${opened.label}. Every conversation is stored: start one with agent-core.\n`,
    );
    return exitCodes.completed;
  }
  const width = Math.max(2, ...summaries.map((summary) => summary.id.length));
  out.write(`${'id'.padEnd(width)}  status       age        messages  title\n`);
  for (const summary of summaries) {
    const waiting = summary.pendingApprovalCount > 0 ? ` (${summary.pendingApprovalCount} waiting)` : '';
    out.write(
      `${summary.id.padEnd(width)}  ${summary.status.padEnd(11)}  ${age(summary.updatedAt, now).padEnd(9)}  ${String(summary.messageCount).padStart(8)}  ${summary.title || '(no prompt yet)'}${waiting}\n`,
    );
  }
  if (cursor !== undefined) out.write(`(the newest ${summaries.length}; --all lists every session)\n`);
  return exitCodes.completed;
}

/** `3 s ago`, `5 min ago`, `2 h ago`, `4 d ago`. */
export function age(iso: string, now: number): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (!Number.isFinite(seconds)) return '?';
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

/**
 * `sessions show ID`: the stored history as a conversation, read only (the
 * log replayed, nothing repaired or written): prompts, answers, tool calls
 * and their results, and the calls that wait for approval.
 */
export async function showSession(
  store: SessionStore,
  id: string,
  out: OutputStream,
  style: Style,
  renderText: (text: string) => string,
): Promise<number> {
  const { state } = await restoreSession(store, id);
  out.write(
    `${style.bold(`session ${state.id}`)}  status ${state.status}, ${state.messages.length} messages, created ${state.createdAt}, updated ${state.updatedAt}\n`,
  );
  if (typeof state.metadata.cwd === 'string') out.write(style.dim(`started in ${state.metadata.cwd}\n`));
  out.write('\n');
  for (const message of state.messages) {
    if (!isModelMessage(message)) {
      out.write(style.dim(`[${message.role}]\n`));
      continue;
    }
    if (message.role === 'user')
      out.write(`${style.bold(style.cyan('> '))}${style.bold(messageText(message))}\n\n`);
    else if (message.role === 'toolResult')
      out.write(
        `  ${message.isError ? style.red('✗') : style.green('✓')} ${message.toolName} → ${preview(message.content)}\n`,
      );
    else {
      for (const block of message.content) {
        if (block.type === 'thinking') out.write(style.dim(`thinking: ${block.thinking.trim()}\n`));
        else if (block.type === 'toolCall')
          out.write(`  ${style.dim('⚙')} ${style.bold(block.name)} ${JSON.stringify(block.input)}\n`);
        else if (block.text.trim() !== '') out.write(`${renderText(block.text).trimEnd()}\n\n`);
      }
    }
  }
  for (const approval of state.pendingApprovals) {
    out.write(
      `${style.yellow('?')} waiting for approval: ${approval.toolCallId}  ${approval.toolName} ${JSON.stringify(approval.input)} (${approval.risk}: ${approval.reason})\n`,
    );
  }
  if (state.pendingApprovals.length > 0)
    out.write(`Decide with: agent-core approve ${state.id} [CALL...] [--deny]\n`);
  return exitCodes.completed;
}

/** `sessions rm ID`: deletes it; a session another live process runs is refused (`SessionBusyError`). */
export async function removeSession(store: SessionStore, id: string, out: OutputStream): Promise<number> {
  const manager = new SessionManager({
    store,
    agentOptions: () => {
      throw new Error('sessions rm builds no agent');
    },
  });
  await manager.remove(id);
  out.write(`Deleted session ${id}.\n`);
  return exitCodes.completed;
}

type RepairingStore = SessionStore & { repair?: (id: string) => Promise<SessionRepairReport> };

/**
 * `sessions repair ID`: cuts a damaged session back to its last consistent
 * point through the store's own `repair` (`FileSessionStore.repair`; a
 * backup of the files is kept), and says what was wrong, kept and dropped.
 */
export async function repairSession(store: SessionStore, id: string, out: OutputStream): Promise<number> {
  const repairing = store as RepairingStore;
  if (typeof repairing.repair !== 'function') {
    throw new AgentError(
      'repair_unsupported',
      'This session store has no repair: only a folder of session files (the default store) can be cut back to a consistent point. A database store keeps its sessions consistent itself.',
    );
  }
  const report = await repairing.repair(id);
  for (const problem of report.problems) out.write(`- ${problem}\n`);
  if (!report.changed) {
    out.write(`Session ${report.sessionId} is consistent: nothing was changed.\n`);
    return exitCodes.completed;
  }
  out.write(
    `Repaired session ${report.sessionId}: kept ${report.keptRecords} log records up to seq ${report.lastSeq}, dropped ${report.droppedRecords} records and ${report.droppedLines} unreadable lines${report.snapshotRewritten ? '; the snapshot was rewritten' : ''}.\n`,
  );
  out.write(`The files as they were are in ${report.backup}.\n`);
  return exitCodes.completed;
}
