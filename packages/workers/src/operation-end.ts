import {
  type AgentMessage,
  type AgentResult,
  isModelMessage,
  messageText,
  toAgentError,
} from '@agent-core/core';
import type { OperationPlan } from './operation-plan.js';
import type { OperationEnd } from './run-outcome.js';

/** How an operation ended, from its run's result. */
export function endOfResult(result: AgentResult): OperationEnd {
  const end: OperationEnd = {
    state: result.terminateReason === 'error' ? 'failed' : 'finished',
    terminateReason: result.terminateReason,
  };
  if (result.text !== '') end.text = result.text;
  if (result.error !== undefined) {
    const error = toAgentError(result.error);
    end.error = { code: error.code, message: error.message };
  }
  const pending = result.pendingApprovals?.length ?? 0;
  if (pending > 0) end.pendingApprovals = pending;
  return end;
}

/** How an operation ended, from its run's end in the session's log (its worker stopped before recording it). */
export function endOfPlan(plan: Extract<OperationPlan, { kind: 'ended' }>, text: string): OperationEnd {
  const end: OperationEnd = {
    state: plan.reason === 'error' ? 'failed' : 'finished',
    terminateReason: plan.reason,
  };
  if (text !== '') end.text = text;
  if (plan.reason === 'error')
    end.error = {
      code: 'run_failed',
      message:
        'The run ended with an error; its worker stopped before recording which. The session’s history holds what the run did.',
    };
  if (plan.pendingApprovals > 0) end.pendingApprovals = plan.pendingApprovals;
  return end;
}

/** The text of the history's last assistant message, '' when there is none. */
export function lastText(messages: readonly AgentMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as AgentMessage;
    if (isModelMessage(message) && message.role === 'assistant') return messageText(message);
  }
  return '';
}
