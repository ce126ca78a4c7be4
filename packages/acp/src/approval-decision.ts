import type { ApprovalDecision, PendingApproval } from '@agent-core/core';

/** The decision for a waiting call, bound to its input and to the subagent it waits in, if any. */
export function decide(
  approval: PendingApproval,
  decision: ApprovalDecision['decision'],
  reason?: string,
): ApprovalDecision {
  return {
    toolCallId: approval.toolCallId,
    inputHash: approval.inputHash,
    decision,
    ...(reason === undefined ? {} : { reason }),
    ...(approval.agentPath.length > 0 ? { agentPath: approval.agentPath } : {}),
  };
}
