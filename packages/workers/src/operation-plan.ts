import type { SessionLogRecord, TerminateReason } from '@agent-core/core';

/**
 * What a worker does with an operation it takes, given where its run got to:
 * - `start`: nothing of it reached the session's log (first attempt, or an
 *   attempt that stopped before its first write): start the run;
 * - `continue`: its run began and did not end (its worker died, or a stopping
 *   worker aborted it to hand it on): resume the session from its log, so
 *   finished tools never run again;
 * - `ended`: its run ended, but the worker stopped before recording it:
 *   record that end, run nothing.
 */
export type OperationPlan =
  | { kind: 'start' }
  | { kind: 'continue' }
  | { kind: 'ended'; reason: TerminateReason; pendingApprovals: number };

/**
 * Plans from `runFromSeq` (the session's last seq when the operation's first
 * run started, or null if none did) and the log records after it. A run ended
 * `aborted` is continued: only a stopping worker aborts a queued run.
 */
export function planOperation(
  runFromSeq: number | null,
  records: readonly SessionLogRecord[],
): OperationPlan {
  if (runFromSeq === null) return { kind: 'start' };
  const last = records.at(-1)?.event;
  if (last === undefined) return { kind: 'start' };
  if (last.type === 'run_ended' && last.reason !== 'aborted')
    return { kind: 'ended', reason: last.reason, pendingApprovals: last.pendingApprovals?.length ?? 0 };
  return { kind: 'continue' };
}
