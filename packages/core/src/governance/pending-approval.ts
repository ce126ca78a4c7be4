import type { ToolResultMessage } from '../messages/messages.js';
import type { ToolRisk } from '../tool/tool.js';

// Decisions are made about tool calls and reach the tools that pause: the type lives with the tool contract.
export type { ApprovalDecision } from '../tool/approval-decision.js';

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
  /**
   * The agents from this one down to the one that made the call: empty when
   * this agent made it, `['researcher']` for its subagent `researcher`,
   * `['lead', 'researcher']` for a subagent of its subagent `lead`.
   */
  agentPath: string[];
  /** When the run paused, as an ISO 8601 string. */
  requestedAt: string;
  /**
   * Set when the call was made inside one of this agent's tool calls (a
   * subagent): that call, left unanswered, and the plain-JSON state its tool
   * continues from on `resume()`, so the subagent never starts over.
   */
  pausedCall?: PausedCall;
  /**
   * Results of later calls of the same response that ran to their end before
   * the run paused (parallel tool execution): the history takes results in
   * call order, so they wait here and are appended once the calls before them
   * have theirs, never run again. Set on the approvals of the first call the
   * run paused at.
   */
  heldResults?: HeldToolResult[];
}

/** A tool call's finished result kept with a pause until it can be appended (see `PendingApproval.heldResults`). */
export interface HeldToolResult {
  toolCallId: string;
  toolName: string;
  content: ToolResultMessage['content'];
  isError: boolean;
  durationMs: number;
}

/**
 * A tool call of an agent's history that paused because something inside it
 * (a subagent's call) waits for approval: plain JSON, stored with the pending approval.
 */
export interface PausedCall {
  toolCallId: string;
  toolName: string;
  /** Hash of the call's canonical input: the resumed call must have the same input. */
  inputHash: string;
  /** What the tool needs to continue (for `asTool`, a `SubagentState`). */
  state: unknown;
}
