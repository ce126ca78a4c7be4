import type { PlanEntry } from '@agentclientprotocol/sdk';

/** The config choices of a session, by config option id. */
export interface AcpSessionConfig {
  model?: string;
  orchestrator?: string;
  policy?: string;
}

/** A plan as the editor was shown it, and where in the history it was shown (the history's length then). */
export interface RecordedPlan {
  at: number;
  entries: PlanEntry[];
}

/**
 * What the ACP server keeps in a session's metadata (under `acp`), so that
 * another process can list, load and replay it as the editor saw it: the
 * working directory, the config choices, tools rejected for good, and how the
 * live stream showed messages that a plain replay would show otherwise (the
 * instructions an orchestrator adds, text streamed as thoughts, plans).
 */
export interface AcpSessionRecord {
  cwd: string;
  config?: AcpSessionConfig;
  /** Tools the user rejected always: their later calls are denied without asking. */
  rejectedTools?: string[];
  /** History indexes the live stream did not show (an orchestrator's own prompts, a plan's JSON). */
  hidden?: number[];
  /** History indexes of answers streamed as thoughts (a plan step's work). */
  thoughts?: number[];
  plans?: RecordedPlan[];
}

/** The record in `metadata.acp`, or a fresh one for `cwd` when the session has none (made elsewhere). */
export function readSessionRecord(metadata: Record<string, unknown>, cwd: string): AcpSessionRecord {
  const stored = metadata.acp;
  if (typeof stored === 'object' && stored !== null && typeof (stored as AcpSessionRecord).cwd === 'string')
    return stored as AcpSessionRecord;
  return { cwd };
}

/** The stored working directory of a session's metadata, if any. */
export function recordedCwd(metadata: Record<string, unknown>): string | undefined {
  const stored = metadata.acp as AcpSessionRecord | undefined;
  return typeof stored?.cwd === 'string' ? stored.cwd : undefined;
}
