import type { TerminateReason } from '../result/agent-result.js';
import type { PendingApproval } from '../governance/pending-approval.js';
import type { AgentMessage, Usage } from '../messages/messages.js';
import { emptyUsage } from '../messages/usage.js';
import { isoNow } from '../time/iso-now.js';
import { randomRunId } from '../trace/run-id.js';

/** The schema version this version of agent-core writes. Older stored versions are migrated on load. */
export const sessionSchemaVersion = 1;

/**
 * Where a session stands: `idle` between prompts, `running` during one,
 * `interrupted` when a process stopped mid-run (found on load), `await_user`
 * when a run paused for a person's decision, `failed` when its last run ended
 * with an error (the next prompt goes on from its history as any other).
 */
export type SessionStatus = 'idle' | 'running' | 'interrupted' | 'await_user' | 'failed';

/** The status a session has once a run ended for `reason`. */
export function statusAfterRun(reason: TerminateReason): SessionStatus {
  return reason === 'await_user' ? 'await_user' : reason === 'error' ? 'failed' : 'idle';
}

/**
 * A conversation as plain JSON: everything a process needs to pick it up.
 * `version` counts saves (a store refuses a save made from a stale version);
 * `lastSeq` is the sequence number of the last events-log record this state
 * includes, so a loader replays only what came after.
 */
export interface SessionState {
  id: string;
  schemaVersion: number;
  version: number;
  status: SessionStatus;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  updatedAt: string;
  messages: AgentMessage[];
  metadata: Record<string, unknown>;
  /** Usage summed over every run of the session. */
  usage: Usage;
  /** Tool calls waiting for a person's decision (see `PendingApproval`). */
  pendingApprovals: PendingApproval[];
  /** Tools a person allowed always in this session (`agent.alwaysAllowedTools`). */
  alwaysAllowedTools: string[];
  /** With `await_user`: the plain-JSON state the orchestrator saved with the pause (`agent.orchestratorState`). */
  orchestratorState?: unknown;
  /** Sequence number of the last events-log record included here; 0 when none. */
  lastSeq: number;
  /** The trace the session's latest run belongs to, when observability records one. */
  trace?: { traceId: string; spanId?: string };
}

/** The fields a new session may be given. */
export interface NewSessionOptions {
  id?: string;
  metadata?: Record<string, unknown>;
  messages?: AgentMessage[];
}

/** A fresh, never-saved session state (`version` 0). */
export function newSessionState(options: NewSessionOptions = {}): SessionState {
  const now = isoNow();
  return {
    // Made as run ids are (getRandomValues): crypto.randomUUID exists only on secure origins in browsers.
    id: options.id ?? randomRunId(),
    schemaVersion: sessionSchemaVersion,
    version: 0,
    status: 'idle',
    createdAt: now,
    updatedAt: now,
    messages: options.messages ?? [],
    metadata: options.metadata ?? {},
    usage: emptyUsage(),
    pendingApprovals: [],
    alwaysAllowedTools: [],
    lastSeq: 0,
  };
}
