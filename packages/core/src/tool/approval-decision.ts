/**
 * A person's answer to one pending approval. `agentPath`, copied from the
 * pending approval, is needed only when a subagent's call id could equal one
 * of this agent's own; without it this agent's own calls are matched first.
 */
export type ApprovalDecision =
  | {
      toolCallId: string;
      inputHash: string;
      decision: 'allow' | 'allow_always';
      agentPath?: readonly string[];
    }
  | {
      toolCallId: string;
      inputHash: string;
      decision: 'deny';
      reason?: string;
      agentPath?: readonly string[];
    };
