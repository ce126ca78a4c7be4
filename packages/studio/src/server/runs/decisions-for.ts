import {
  AgentError,
  type AgentMessage,
  type ApprovalDecision,
  type DecidedCall,
  inputHash,
  isModelMessage,
  messageText,
  type PendingApproval,
  type ToolCallBlock,
  toolCallsOf,
} from '@agent-core/core';
import type { DecidedOutcome, DecisionAnswer, DecisionInput } from '../../shared/studio-data.js';
import { describeError } from '../view/describe-error.js';
import type { Redactor } from '../view/redactor.js';

/** What deciding needs of a session: its id, history and waiting calls, and the tools of the agent that would run them. */
export interface DecidedSession {
  id: string;
  messages: readonly AgentMessage[];
  pendingApprovals: readonly PendingApproval[];
  /** The tools an approved call may need here; undefined when another process runs them (nothing to check). */
  toolNames?: ReadonlySet<string>;
}

/**
 * The decisions for the calls named, bound to their input hashes: a waiting
 * call from the session's pending approvals; a call of the history that no
 * longer waits is passed on too, so core (or `answeredCalls`) says what
 * became of it. A call the session never held, or an approved call whose
 * tool `toolNames` lacks, is a problem.
 */
export function decisionsFor(
  session: DecidedSession,
  inputs: readonly DecisionInput[],
): { decisions: ApprovalDecision[] } | { problem: string } {
  if (inputs.length === 0) return { problem: 'No decision was given.' };
  const pending = session.pendingApprovals;
  const tools = session.toolNames;
  const decisions: ApprovalDecision[] = [];
  for (const input of inputs) {
    const reason =
      input.decision === 'deny' && input.reason !== undefined && input.reason !== ''
        ? { reason: input.reason }
        : {};
    const waiting = pending.find((approval) => approval.toolCallId === input.toolCallId);
    if (waiting !== undefined) {
      if (
        input.decision === 'allow' &&
        tools !== undefined &&
        waiting.agentPath.length === 0 &&
        !tools.has(waiting.toolName)
      )
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
    const call = findCall(session.messages, input.toolCallId);
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

/**
 * Splits decisions into those for calls the history already answers (with
 * what became of each, as core's resume reports it) and the rest, which
 * still wait or are being applied elsewhere.
 */
export function answeredCalls(
  messages: readonly AgentMessage[],
  decisions: readonly ApprovalDecision[],
  redactor: Redactor,
): { open: ApprovalDecision[]; decided: DecidedOutcome[] } {
  const results = new Map<string, { isError: boolean; text: string }>();
  for (const message of messages)
    if (isModelMessage(message) && message.role === 'toolResult')
      results.set(message.toolCallId, { isError: message.isError, text: messageText(message) });
  const open: ApprovalDecision[] = [];
  const decided: DecidedOutcome[] = [];
  for (const decision of decisions) {
    const result = decision.agentPath === undefined ? results.get(decision.toolCallId) : undefined;
    const call = result === undefined ? undefined : findCall(messages, decision.toolCallId);
    if (result === undefined || call === undefined) {
      open.push(decision);
      continue;
    }
    const text = result.text.replace(/\s+/g, ' ').trim();
    decided.push({
      toolCallId: call.id,
      toolName: call.name,
      isError: result.isError,
      result: redactor.text(text.length > 200 ? `${text.slice(0, 197)}...` : text),
    });
  }
  return { open, decided };
}

function findCall(messages: readonly AgentMessage[], id: string): ToolCallBlock | undefined {
  for (const message of messages) {
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
