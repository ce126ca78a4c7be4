import {
  AgentError,
  type ApprovalDecision,
  type DecidedCall,
  inputHash,
  isModelMessage,
  type Session,
  toolCallsOf,
} from '@agent-core/core';
import type { DecisionAnswer, DecisionInput } from '../../shared/studio-data.js';
import { describeError } from '../view/describe-error.js';
import type { Redactor } from '../view/redactor.js';

/**
 * The decisions for the calls named, bound to their input hashes: a waiting
 * call from the session's pending approvals; a call of the history that no
 * longer waits is passed on too, so core says what became of it. A call the
 * session never held, or an approved call whose tool this agent lacks, is a problem.
 */
export function decisionsFor(
  session: Session,
  inputs: readonly DecisionInput[],
): { decisions: ApprovalDecision[] } | { problem: string } {
  if (inputs.length === 0) return { problem: 'No decision was given.' };
  const pending = session.agent.pendingApprovals;
  const tools = new Set(session.agent.tools.map((tool) => tool.name));
  const decisions: ApprovalDecision[] = [];
  for (const input of inputs) {
    const reason =
      input.decision === 'deny' && input.reason !== undefined && input.reason !== ''
        ? { reason: input.reason }
        : {};
    const waiting = pending.find((approval) => approval.toolCallId === input.toolCallId);
    if (waiting !== undefined) {
      if (input.decision === 'allow' && waiting.agentPath.length === 0 && !tools.has(waiting.toolName))
        return {
          problem: `The call needs the tool '${waiting.toolName}', which this studio's agent does not have: start the studio with the same tools as the session's runs. Nothing was run.`,
        };
      const path = waiting.agentPath.length > 0 ? { agentPath: waiting.agentPath } : {};
      decisions.push(
        input.decision === 'deny'
          ? {
              toolCallId: input.toolCallId,
              inputHash: waiting.inputHash,
              decision: 'deny',
              ...reason,
              ...path,
            }
          : { toolCallId: input.toolCallId, inputHash: waiting.inputHash, decision: 'allow', ...path },
      );
      continue;
    }
    const call = findCall(session, input.toolCallId);
    if (call === undefined)
      return {
        problem: `Session ${session.id} has no tool call '${input.toolCallId}'. Waiting calls: ${pending.map((approval) => approval.toolCallId).join(', ') || 'none'}.`,
      };
    decisions.push(
      input.decision === 'deny'
        ? { toolCallId: input.toolCallId, inputHash: inputHash(call.input), decision: 'deny', ...reason }
        : { toolCallId: input.toolCallId, inputHash: inputHash(call.input), decision: 'allow' },
    );
  }
  return { decisions };
}

function findCall(session: Session, id: string) {
  for (const message of session.messages) {
    if (!isModelMessage(message) || message.role !== 'assistant') continue;
    const call = toolCallsOf(message).find((block) => block.id === id);
    if (call !== undefined) return call;
  }
  return undefined;
}

/** What a refused `resume` or `prompt` answers: what became of calls already decided, or the error; other throws pass. */
export function refusal(error: unknown, redactor: Redactor): DecisionAnswer {
  if (AgentError.isInstance(error) && error.code === 'approval_already_decided') {
    const decided = ((error as AgentError & { decided?: readonly DecidedCall[] }).decided ?? []).map(
      (call) => ({
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        isError: call.isError,
        result: redactor.text(call.result),
      }),
    );
    return { outcome: 'already_decided', decided, message: describeError(error, redactor) };
  }
  if (AgentError.isInstance(error))
    return { outcome: 'refused', message: describeError(error, redactor), code: error.code };
  throw error;
}
