import type { PendingApproval } from '@agent-core/core';
import type { Style } from '../output/terminal-style.js';

/** The lines that describe calls waiting for a decision: call id, tool, risk, input, and the policy's reason. */
export function pendingLines(approvals: readonly PendingApproval[], style: Style): string {
  return approvals
    .map((approval) => {
      const input = JSON.stringify(approval.input);
      const shown = input.length > 100 ? `${input.slice(0, 97)}...` : input;
      const where = approval.agentPath.length > 0 ? ` in ${approval.agentPath.join(' → ')}` : '';
      return `  ${style.bold(approval.toolCallId)}  ${approval.toolName}${where}  risk ${approval.risk}  ${shown}\n    ${style.dim(approval.reason)}\n`;
    })
    .join('');
}
