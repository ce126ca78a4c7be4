import type { TerminateReason } from '@agent-core/core';
import type { RunInput } from './run-input.js';

/**
 * Where an operation stands: `queued` until a worker takes it (and again when
 * a stopping worker hands it back), `running` while a worker runs it,
 * `finished` once its run ended (see `terminateReason`: `await_user` is a
 * pause for approval), `failed` when its run ended with an error or it could
 * not run at all (see `error`).
 */
export type OperationState = 'queued' | 'running' | 'finished' | 'failed';

/** An operation of the run queue and, once it ended, how: plain JSON, from `enqueue`, `outcome` and `wait`. */
export interface RunOutcome {
  operationId: string;
  sessionId: string;
  type: RunInput['type'];
  state: OperationState;
  /** How the run ended, once `finished` (or `failed` by the run's own error). */
  terminateReason?: TerminateReason;
  /** The run's final text, once finished. */
  text?: string;
  /** Why it failed: the run's error, or why it could not run. */
  error?: { code: string; message: string };
  /** Calls left waiting for a decision, when the run paused (`terminateReason` `await_user`). */
  pendingApprovals?: number;
  /** How many times a worker started on it: more than one after a worker died or stopped. */
  attempts: number;
  /** The schedule that enqueued it, if any. */
  schedule?: string;
  /** ISO 8601 times. */
  enqueuedAt: string;
  startedAt?: string;
  finishedAt?: string;
}

/** What a worker records when an operation ends. */
export interface OperationEnd {
  state: 'finished' | 'failed';
  terminateReason?: TerminateReason;
  text?: string;
  error?: { code: string; message: string };
  pendingApprovals?: number;
}

/** The columns of `agent_core_operations` that make an outcome. */
export const outcomeColumns =
  'operation_id, session_id, kind, state, attempts, schedule, outcome, enqueued_at, started_at, finished_at';

/** An outcome from a row selected with `outcomeColumns`. */
export function outcomeFromRow(row: Record<string, unknown>): RunOutcome {
  const end = (row.outcome ?? undefined) as OperationEnd | undefined;
  const outcome: RunOutcome = {
    operationId: row.operation_id as string,
    sessionId: row.session_id as string,
    type: row.kind as RunInput['type'],
    state: row.state as OperationState,
    attempts: row.attempts as number,
    enqueuedAt: (row.enqueued_at as Date).toISOString(),
  };
  if (end?.terminateReason !== undefined) outcome.terminateReason = end.terminateReason;
  if (end?.text !== undefined) outcome.text = end.text;
  if (end?.error !== undefined) outcome.error = end.error;
  if (end?.pendingApprovals !== undefined) outcome.pendingApprovals = end.pendingApprovals;
  if (typeof row.schedule === 'string') outcome.schedule = row.schedule;
  if (row.started_at instanceof Date) outcome.startedAt = row.started_at.toISOString();
  if (row.finished_at instanceof Date) outcome.finishedAt = row.finished_at.toISOString();
  return outcome;
}

/** Whether an operation is over: nothing more will run for it. */
export function isSettled(outcome: RunOutcome): boolean {
  return outcome.state === 'finished' || outcome.state === 'failed';
}
