import type { AssistantMessage } from '../messages/messages.js';
import type { Approver } from '../governance/approval.js';
import type { Guard } from '../governance/guard.js';
import type { Intent } from '../governance/intent.js';
import type { CallResume } from './paused-call.js';
import type { PendingApproval, ApprovalDecision } from '../governance/pending-approval.js';
import type { ToolResume } from '../tool/tool.js';
import type { Policy } from '../governance/policy.js';

/**
 * What an agent remembers about approvals between runs, as plain JSON: the
 * calls waiting for a decision and the tools a person allowed always.
 * Store both with the session to resume in another process.
 */
export interface ApprovalMemory {
  pending: PendingApproval[];
  alwaysAllowed: string[];
}

/**
 * The governance of one run: the policy, guard and approver in force, the
 * decisions a resume brought, and what the gate needs to remember while the
 * run lasts. Made once per run, and only when the run has any of them, so a
 * run without governance pays one `undefined` check per tool call.
 */
export class RunGovernance {
  readonly policy: Policy | undefined;
  readonly guard: Guard | undefined;
  readonly approve: Approver | undefined;
  readonly intentRequired: boolean;
  /** Decisions from `agent.resume()`, and paused calls to continue, by call id; each is taken out when used, so it applies once. */
  readonly decisions: Map<string, ApprovalDecision | CallResume>;
  /** Paused calls the gate admitted to continue, by call id, until their tool takes its `ToolContext.resume`. */
  resumes: Map<string, ToolResume> | undefined;
  readonly memory: ApprovalMemory;
  readonly startedAt = performance.now();
  /** When the guard saw each tool call of the last minute, oldest first. */
  readonly callTimes: number[] = [];
  readonly intents = new WeakMap<AssistantMessage, Intent[]>();
  /** The approvals the run stopped for, once it pauses. */
  paused: PendingApproval[] | undefined;

  constructor(init: {
    policy: Policy | undefined;
    guard: Guard | undefined;
    approve: Approver | undefined;
    intentRequired: boolean;
    decisions: Map<string, ApprovalDecision | CallResume>;
    memory: ApprovalMemory;
  }) {
    this.policy = init.policy;
    this.guard = init.guard;
    this.approve = init.approve;
    this.intentRequired = init.intentRequired;
    this.decisions = init.decisions;
    this.memory = init.memory;
    this.resumes = undefined;
  }

  /** Hands a tool the resume the gate admitted its call with, once. */
  takeResume(toolCallId: string): ToolResume | undefined {
    const resumes = this.resumes;
    if (resumes === undefined) return undefined;
    const resume = resumes.get(toolCallId);
    resumes.delete(toolCallId);
    return resume;
  }
}
