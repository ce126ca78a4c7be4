import {
  ApprovalError,
  type ApprovalDecision,
  type PendingApproval,
  restoreSession,
  type SessionStore,
} from '@agent-core/core';

/** A paused session's decisions, checked, and the seq of its log that names the pause. */
export interface DecidedPause {
  decisions: ApprovalDecision[];
  seq: number;
}

/**
 * Reads a session (its log replayed) and checks decisions against the calls
 * it waits for: each must name a waiting call and carry that call's input
 * hash. `'allow'` or `'deny'` decides every waiting call. Throws
 * `ApprovalError`: `approval_already_decided` when nothing waits,
 * `approval_claimed` while a run of the session is going on (its decisions are
 * being applied), `approval_unknown_call` and `approval_input_mismatch` for a
 * decision that does not fit.
 */
export async function decisionsForPause(
  store: SessionStore,
  sessionId: string,
  given: readonly ApprovalDecision[] | 'allow' | 'deny',
): Promise<DecidedPause> {
  const { state } = await restoreSession(store, sessionId);
  if (state.status === 'running')
    throw new ApprovalError(
      'approval_claimed',
      `Session '${sessionId}' is running: its waiting calls are being decided or resumed elsewhere. Nothing was enqueued; see how that run ends before deciding again.`,
    );
  const pending = state.pendingApprovals;
  if (state.status !== 'await_user' || pending.length === 0)
    throw new ApprovalError(
      'approval_already_decided',
      `Session '${sessionId}' has no tool call waiting for a decision (status ${state.status}); nothing was enqueued.`,
    );
  if (given === 'allow' || given === 'deny')
    return { seq: state.lastSeq, decisions: pending.map((approval) => decisionFor(approval, given)) };
  if (!Array.isArray(given) || given.length === 0)
    throw new ApprovalError(
      'approval_invalid',
      "decide takes a non-empty list of decisions ({ toolCallId, inputHash, decision }), or 'allow' or 'deny' for every waiting call.",
    );
  for (const decision of given) {
    const waiting = pending.find(
      (approval) =>
        approval.toolCallId === decision.toolCallId &&
        (decision.agentPath === undefined || sameList(decision.agentPath, approval.agentPath)),
    );
    if (waiting === undefined)
      throw new ApprovalError(
        'approval_unknown_call',
        `Session '${sessionId}' has no call '${decision.toolCallId}' waiting for a decision. Waiting: ${pending.map((approval) => approval.toolCallId).join(', ')}. Nothing was enqueued.`,
        decision.toolCallId,
      );
    if (waiting.inputHash !== decision.inputHash)
      throw new ApprovalError(
        'approval_input_mismatch',
        `The decision for call '${decision.toolCallId}' (${waiting.toolName}) was made for other input than the call has; nothing was enqueued. Decide again from the session's pending approvals.`,
        decision.toolCallId,
      );
  }
  return { seq: state.lastSeq, decisions: [...given] };
}

function decisionFor(approval: PendingApproval, decision: 'allow' | 'deny'): ApprovalDecision {
  const path = approval.agentPath.length > 0 ? { agentPath: approval.agentPath } : {};
  return { toolCallId: approval.toolCallId, inputHash: approval.inputHash, decision, ...path };
}

function sameList(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((item, index) => item === right[index]);
}
