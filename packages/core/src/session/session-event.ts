import type { PendingApproval } from '../governance/pending-approval.js';
import type { TerminateReason } from '../result/agent-result.js';
import type { AgentMessage, Usage } from '../messages/messages.js';

/**
 * One entry of a session's append-only events log, plain JSON. A run writes
 * `run_started`, each message as it joins the history, `tool_started` before a
 * tool runs (flushed first: log before execute) and `tool_finished` after its
 * result message, and `run_ended`.
 */
export type SessionEvent =
  | { type: 'run_started'; runId: string; at: string }
  | { type: 'message'; message: AgentMessage }
  | { type: 'tool_started'; toolCallId: string; toolName: string; input: Record<string, unknown>; at: string }
  | { type: 'tool_finished'; toolCallId: string; toolName: string; isError: boolean; durationMs: number }
  | {
      type: 'run_ended';
      runId: string;
      reason: TerminateReason;
      usage: Usage;
      at: string;
      /** The calls the run left waiting for a decision (with `await_user`); none otherwise. */
      pendingApprovals?: PendingApproval[];
      /** The tools a person allowed always, as of the run's end. */
      alwaysAllowedTools?: string[];
      /** With a pause: the state the orchestrator saved, handed back to it on resume. */
      orchestratorState?: unknown;
      /** The trace of the session's first run, recorded with that run's end. */
      trace?: { traceId: string; spanId?: string };
      /** Why a run that ended with `error` failed (secrets removed), so a viewer in any process can say. */
      error?: { code: string; message: string };
    };

/** A log entry as stored: its sequence number (from 1, gapless per session) and the append it came from. */
export interface SessionLogRecord {
  seq: number;
  operationId: string;
  event: SessionEvent;
}
