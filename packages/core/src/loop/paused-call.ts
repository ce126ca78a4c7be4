import { AgentError } from '../errors/agent-error.js';
import { ApprovalError } from '../errors/approval-error.js';
import type { ToolPauseRequest } from '../governance/tool-pause-request.js';
import type { RunContext } from './run-context.js';
import type { ToolCallBlock } from '../messages/messages.js';
import type { ToolResume } from '../tool/tool.js';
import type { GateRefusal } from './admit-call.js';
import { inputHash } from '../governance/input-hash.js';
import type { ApprovalDecision, PendingApproval } from '../governance/pending-approval.js';

/**
 * A resume's instruction for a call that paused inside (a subagent call):
 * run it again with its stored state and the decisions for its inner calls.
 * Kept with the decisions by call id, so it passes the gate the same way.
 */
export interface CallResume {
  kind: 'resume';
  /** Hash of the paused call's input: a call with other input is not resumed. */
  inputHash: string;
  resume: ToolResume;
}

/** True for a `ToolPauseRequest`, whichever copy of the package threw it. */
export function isToolPauseRequest(error: unknown): error is ToolPauseRequest {
  return AgentError.isInstance(error) && error.code === 'tool_paused';
}

/**
 * Turns a tool's `ToolPauseRequest` into a pause of the run: each approval
 * asked inside the call is listed with the call and the tool's state
 * (`pausedCall`), announced as an `approval_request`, and the run halts with
 * `await_user` like a pause of its own gate. If the run is already ending for
 * another reason, the call gets an error result instead.
 */
export function pauseForCall(
  context: RunContext,
  call: ToolCallBlock,
  request: ToolPauseRequest,
): GateRefusal {
  const state = context.state;
  const halt = state.halt;
  if ((halt !== undefined && halt.reason !== 'await_user') || request.pendingApprovals.length === 0) {
    return { ok: false, message: `Tool '${call.name}' waited for approval, but the run was ending.` };
  }
  const pausedCall = {
    toolCallId: call.id,
    toolName: call.name,
    inputHash: inputHash(call.input),
    state: request.state,
  };
  const approvals: PendingApproval[] = request.pendingApprovals.map((approval) => ({
    ...structuredClone(approval),
    pausedCall: structuredClone(pausedCall),
  }));
  for (const approval of approvals) context.emit({ type: 'approval_request', approval });
  if (halt === undefined) state.halt = { reason: 'await_user', pendingApprovals: approvals };
  else (halt.pendingApprovals ??= []).push(...approvals);
  return { ok: false, message: `Tool call '${call.name}' waits for approval.`, paused: true };
}

/**
 * Sorts out the decisions that name no call of this agent's history: each
 * must match an approval asked inside a paused call (`pendingApprovals` with
 * `pausedCall`) by call id, `agentPath` when given, and input hash, or
 * `ApprovalError` is thrown. Returns a `CallResume` for every paused call
 * still unanswered, with or without decisions, so a resume never starts a
 * paused call over.
 */
export function resumesForPausedCalls(
  pending: readonly PendingApproval[],
  nested: readonly ApprovalDecision[],
  unanswered: ReadonlySet<string>,
): Map<string, CallResume> {
  const resumes = new Map<string, CallResume>();
  for (const approval of pending) {
    const paused = approval.pausedCall;
    if (paused === undefined || !unanswered.has(paused.toolCallId) || resumes.has(paused.toolCallId))
      continue;
    resumes.set(paused.toolCallId, {
      kind: 'resume',
      inputHash: paused.inputHash,
      resume: { state: paused.state, decisions: [] },
    });
  }
  const decided = new Set<string>();
  for (const decision of nested) {
    const id = decision.toolCallId;
    const path = decision.agentPath;
    const matches = pending.filter(
      (approval) =>
        approval.pausedCall !== undefined &&
        approval.toolCallId === id &&
        (path === undefined || samePath(path, approval.agentPath)),
    );
    if (matches.length === 0) {
      throw new ApprovalError(
        'approval_unknown_call',
        `No tool call '${id}' is in this agent's history or waits in one of its subagents, so the decision cannot apply: it is forged, stale, or meant for another session. Decide the calls in agent.pendingApprovals.`,
        id,
      );
    }
    const match = matches.find((approval) => approval.inputHash === decision.inputHash);
    if (match === undefined || inputHash(match.input) !== decision.inputHash) {
      throw new ApprovalError(
        'approval_input_mismatch',
        `The decision for tool call '${id}' (${matches[0]?.toolName}, agents: ${matches[0]?.agentPath.join(' > ')}) was made for other input than the call has; nothing ran. Decide again from agent.pendingApprovals.`,
        id,
      );
    }
    const key = `${match.agentPath.join('\u0000')}\u0001${id}`;
    const resume = resumes.get((match.pausedCall as NonNullable<PendingApproval['pausedCall']>).toolCallId);
    // A second decision for the same call is a no-op, as for this agent's own calls.
    if (resume === undefined || decided.has(key)) continue;
    decided.add(key);
    // The tool sees the path from its own agent down: the first name is the agent it runs.
    resume.resume.decisions.push({ ...decision, agentPath: match.agentPath.slice(1) });
  }
  return resumes;
}

function samePath(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((name, index) => name === right[index]);
}
