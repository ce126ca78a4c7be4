import {
  AgentError,
  historyProblems,
  replayRecords,
  type SessionLogRecord,
  type SessionState,
  type SessionStore,
  summaryOf,
} from '@agent-core/core';
import type { LiveMark, ReadProblem, SessionView, TimelineRecord } from '../../shared/studio-data.js';
import { describeError, errorCode } from '../view/describe-error.js';
import type { Redactor } from '../view/redactor.js';
import { timelineRecord } from '../view/timeline-record.js';
import { viewApproval } from '../view/view-approval.js';
import { viewMessage, viewUsage } from '../view/view-message.js';

/** Codes of errors that mean the session cannot be shown at all: it is not there, or the store is not. */
const fatalCodes = new Set(['session_not_found', 'invalid_session_id']);

/**
 * Reads a session for its page, tolerating damage: the snapshot, then the
 * whole events log (for the timelines), then the log after the snapshot
 * replayed onto it. Each part that cannot be read becomes a `ReadProblem`
 * with the store's error, and the page shows what could be read. An unknown
 * session, a bad id or a store that cannot be reached throws.
 */
export async function readSessionView(
  store: SessionStore,
  id: string,
  options: {
    redactor: Redactor;
    marks: readonly LiveMark[];
    canDecide: boolean;
    canPrompt: boolean;
    listedStatus?: string;
  },
): Promise<SessionView> {
  const { redactor } = options;
  const problems: ReadProblem[] = [];
  let state: SessionState | undefined;
  try {
    state = await store.load(id);
  } catch (error) {
    if (isFatal(error)) throw error;
    problems.push(problem('snapshot', error, redactor));
  }
  let records: SessionLogRecord[] = [];
  try {
    records = await store.read(id);
  } catch (error) {
    if (isFatal(error) && state === undefined) throw error;
    problems.push(problem('events log', error, redactor));
  }
  if (state !== undefined) {
    try {
      replayRecords(state, records);
    } catch (error) {
      problems.push(problem('events log', error, redactor));
    }
    const history = historyProblems(state.messages, { allowPendingCalls: true });
    if (history.length > 0)
      problems.push({
        part: 'history',
        message: redactor.text(`the history could not be sent to a model: ${history.slice(0, 3).join('; ')}`),
      });
  }
  const messages = state?.messages ?? messagesOf(records);
  const summary = state === undefined ? undefined : summaryOf(state);
  const timeline: TimelineRecord[] = [];
  for (const record of records) {
    const slim = timelineRecord(record, redactor);
    if (slim !== undefined) timeline.push(slim);
  }
  const title = summary?.title ?? '';
  // A run no live process holds is listed interrupted by the store; the snapshot alone would say running.
  const status =
    state?.status === 'running' && options.listedStatus === 'interrupted'
      ? 'interrupted'
      : (state?.status ?? 'unreadable');
  return {
    id,
    title: redactor.text(title),
    status,
    createdAt: state?.createdAt ?? '',
    updatedAt: state?.updatedAt ?? '',
    version: state?.version ?? 0,
    lastSeq: records.at(-1)?.seq ?? state?.lastSeq ?? 0,
    usage: viewUsage(state?.usage) ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    messages: messages.map((message, index) => viewMessage(message, index, redactor)),
    records: timeline,
    marks: options.marks.slice(),
    approvals: (state?.pendingApprovals ?? []).map((approval) =>
      viewApproval({ id, title }, approval, redactor),
    ),
    problems,
    canDecide: options.canDecide,
    canPrompt: options.canPrompt,
  };
}

function messagesOf(records: readonly SessionLogRecord[]) {
  return records.flatMap((record) => (record.event.type === 'message' ? [record.event.message] : []));
}

function isFatal(error: unknown): boolean {
  if (!AgentError.isInstance(error)) return false;
  if (fatalCodes.has(error.code)) return true;
  // A store that cannot be reached says nothing about the session: the page shows a banner and retries.
  return error.code.startsWith('session_storage') && (error as { retryable?: boolean }).retryable === true;
}

function problem(part: string, error: unknown, redactor: Redactor): ReadProblem {
  const code = errorCode(error);
  return { part, message: describeError(error, redactor), ...(code === undefined ? {} : { code }) };
}
