import type { SessionRepairReport } from '@agent-core/store-file';
import {
  AgentError,
  ConfigError,
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
import { findSession } from '../sessions/find-session.js';
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
  json = false,
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
  if (json) {
    const sessions = summaries.map((summary) => ({
      id: summary.id,
      status: summary.status,
      title: summary.title,
      createdAt: summary.createdAt,
      updatedAt: summary.updatedAt,
      messageCount: summary.messageCount,
      pendingApprovalCount: summary.pendingApprovalCount,
      cwd: cwdOf(summary.metadata),
    }));
    out.write(`${JSON.stringify({ store: opened.label, sessions, more: cursor !== undefined }, null, 2)}\n`);
    return exitCodes.completed;
  }
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

/** The folder a session was started in: the CLI's `cwd`, or an editor session's. */
function cwdOf(metadata: Record<string, unknown>): string | undefined {
  if (typeof metadata.cwd === 'string') return metadata.cwd;
  const acp = metadata.acp as { cwd?: unknown } | undefined;
  return typeof acp?.cwd === 'string' ? acp.cwd : undefined;
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

/** How `sessions show` prints: rendered for a person, or one JSON document. */
export interface ShowOptions {
  style: Style;
  renderText: (text: string) => string;
  json: boolean;
}

/**
 * `sessions show ID`: the stored history as a conversation, read only (the
 * log replayed, nothing repaired or written): prompts, answers, tool calls
 * and their results, and the calls that wait for approval. The status is
 * the one `sessions list` shows (a run whose process stopped is `interrupted`).
 * With `--json`, one document: the session's fields and its messages as stored.
 */
export async function showSession(
  opened: OpenedStore,
  given: string,
  out: OutputStream,
  options: ShowOptions,
): Promise<number> {
  const found = await findSession(opened, given);
  const { state } = await restoreSession(opened.store, found.id).catch((error: unknown) => {
    throw notStored(error, given, opened);
  });
  const status = found.summary?.status ?? state.status;
  if (options.json) {
    const document = {
      id: state.id,
      status,
      createdAt: state.createdAt,
      updatedAt: state.updatedAt,
      cwd: cwdOf(state.metadata),
      usage: state.usage,
      messages: state.messages,
      pendingApprovals: state.pendingApprovals,
    };
    out.write(`${JSON.stringify(document, null, 2)}\n`);
    return exitCodes.completed;
  }
  const { style, renderText } = options;
  out.write(
    `${style.bold(`session ${state.id}`)}  status ${status}, ${state.messages.length} messages, created ${state.createdAt}, updated ${state.updatedAt}\n`,
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
  if (status === 'interrupted')
    out.write(
      style.dim(
        `Its last run stopped with its process: 'agent-core --session ${state.id}' then /resume continues it.\n`,
      ),
    );
  return exitCodes.completed;
}

/** A session id the store does not hold, as the error a person reads (exit code 2); any other error as it is. */
function notStored(error: unknown, given: string, opened: OpenedStore): unknown {
  if (!AgentError.isInstance(error) || error.code !== 'session_not_found') return error;
  return new ConfigError(
    `No session '${given}' is stored in ${opened.label}. 'agent-core sessions list' shows the stored sessions.`,
    { cause: error },
  );
}

/** `sessions rm ID`: deletes it; a session another live process runs is refused (`SessionBusyError`). */
export async function removeSession(opened: OpenedStore, given: string, out: OutputStream): Promise<number> {
  const { id } = await findSession(opened, given);
  const manager = new SessionManager({
    store: opened.store,
    agentOptions: () => {
      throw new Error('sessions rm builds no agent');
    },
  });
  const removed = await manager.remove(id).catch((error: unknown) => {
    throw notStored(error, given, opened);
  });
  if (!removed)
    throw new ConfigError(
      `No session '${given}' is stored in ${opened.label}, so nothing was deleted. 'agent-core sessions list' shows the stored sessions.`,
    );
  out.write(`Deleted session ${id}.\n`);
  return exitCodes.completed;
}

type RepairingStore = SessionStore & { repair?: (id: string) => Promise<SessionRepairReport> };

/**
 * `sessions repair ID`: cuts a damaged session back to its last consistent
 * point through the store's own `repair` (`FileSessionStore.repair`; a
 * backup of the files is kept), and says what was wrong, kept and dropped.
 */
export async function repairSession(opened: OpenedStore, given: string, out: OutputStream): Promise<number> {
  const repairing = opened.store as RepairingStore;
  if (typeof repairing.repair !== 'function') {
    throw new AgentError(
      'repair_unsupported',
      'This session store has no repair: only a folder of session files (the default store) can be cut back to a consistent point. A database store keeps its sessions consistent itself.',
    );
  }
  const { id } = await findSession(opened, given);
  const report = await repairing.repair(id).catch((error: unknown) => {
    throw notStored(error, given, opened);
  });
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
