import type { ToolRisk } from '../tool/tool.js';

/**
 * A tool call waiting for a person's decision: plain JSON, stored in a
 * session so any process can decide it later. Bound to the call's id, its
 * tool and a hash of its canonical input, so a decision cannot be replayed
 * onto another call or other input.
 */
export interface PendingApproval {
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
  /** Hash of the canonical JSON of `input` (sorted keys). */
  inputHash: string;
  risk: ToolRisk;
  /** Why the call needs a decision: the policy rule, the guard, or a hook. */
  reason: string;
  /** Names of the agents between the root and the one that made the call, for subagents; empty at the root. */
  agentPath: string[];
  /** When the run paused, as an ISO 8601 string. */
  requestedAt: string;
}

/** A person's answer to one pending approval. */
export type ApprovalDecision =
  | { toolCallId: string; inputHash: string; decision: 'allow' | 'allow_always' }
  | { toolCallId: string; inputHash: string; decision: 'deny'; reason?: string };
