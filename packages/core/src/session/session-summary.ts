import { isModelMessage, messageText } from '../messages/messages.js';
import type { AgentMessage } from '../messages/messages.js';
import type { SessionEvent } from './session-event.js';
import { type SessionState, type SessionStatus, statusAfterRun } from './session-state.js';

/**
 * What `list` tells about a session without its history: enough for a list
 * screen or an approvals inbox. A store keeps it current with every save and
 * every append (see `summaryOf` and `advanceSummary`), so it follows each
 * change of status without replaying a log.
 */
export interface SessionSummary {
  id: string;
  status: SessionStatus;
  createdAt: string;
  /** ISO 8601: the session's last activity (its last run's start or end, or its last save). */
  updatedAt: string;
  version: number;
  metadata: Record<string, unknown>;
  /** Messages in the history, app-defined ones included. */
  messageCount: number;
  /** `metadata.title` when it is a non-empty string, else the first user prompt cut short; '' before the first prompt. */
  title: string;
  /** Tool calls waiting for a person's decision (with status `await_user`). */
  pendingApprovalCount: number;
}

/** The longest title a summary carries; a longer prompt is cut and ends with '…'. */
export const summaryTitleLength = 80;

/** The summary of a whole state, as a store writes it with a save. */
export function summaryOf(state: SessionState): SessionSummary {
  let title = metadataTitle(state.metadata);
  if (title === '') {
    for (const message of state.messages) {
      title = promptTitle(message);
      if (title !== '') break;
    }
  }
  return {
    id: state.id,
    status: state.status,
    createdAt: state.createdAt,
    updatedAt: state.updatedAt,
    version: state.version,
    metadata: state.metadata,
    messageCount: state.messages.length,
    title,
    pendingApprovalCount: state.pendingApprovals.length,
  };
}

/**
 * Applies appended log events to a summary in place and returns it: a run's
 * start makes it `running`, its end sets the status the run left
 * (`statusAfterRun`), the time and the approvals waiting; each message counts,
 * and the first user prompt is the title when there is none yet.
 */
export function advanceSummary(summary: SessionSummary, events: readonly SessionEvent[]): SessionSummary {
  for (const event of events) {
    switch (event.type) {
      case 'run_started':
        summary.status = 'running';
        summary.updatedAt = event.at;
        break;
      case 'message':
        summary.messageCount++;
        if (summary.title === '') summary.title = promptTitle(event.message);
        break;
      case 'run_ended':
        summary.status = statusAfterRun(event.reason);
        summary.updatedAt = event.at;
        summary.pendingApprovalCount = event.pendingApprovals?.length ?? 0;
        break;
      default:
        break;
    }
  }
  return summary;
}

function metadataTitle(metadata: Record<string, unknown>): string {
  const title = metadata.title;
  return typeof title === 'string' ? shorten(title) : '';
}

/** The title a message gives a session: a user prompt's text, folded and cut; '' for anything else. */
function promptTitle(message: AgentMessage): string {
  if (!isModelMessage(message) || message.role !== 'user') return '';
  return shorten(messageText(message));
}

function shorten(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= summaryTitleLength) return flat;
  let end = summaryTitleLength - 1;
  // Never half of a character written as two code units (an emoji): a store may refuse the lone half.
  const last = flat.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${flat.slice(0, end)}…`;
}
