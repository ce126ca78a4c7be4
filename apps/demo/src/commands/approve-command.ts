import {
  AgentError,
  type ApprovalDecision,
  type DecidedCall,
  inputHash,
  isModelMessage,
  toolCallsOf,
} from '@agent-core/core';
import { exitCodes } from '../exit-codes.js';
import { cliWords } from '../output/cli-words.js';
import type { Conversation } from '../sessions/conversation.js';
import { finishRun } from './chat-command.js';
import type { RunIo } from './run-io.js';

/** What `approve` decides: the calls (all waiting ones when empty), allow or deny, and a reason for a denial. */
export interface ApproveOptions {
  calls: readonly string[];
  deny: boolean;
  reason: string | undefined;
}

/**
 * `approve SESSION [CALL...] [--deny]`: decides the calls that wait and
 * resumes the run in this process, streaming it to its end. The approved
 * tools run exactly once, whichever process decides; deciding a call already
 * decided (here or elsewhere) says what became of it and runs nothing.
 */
export async function approveCommand(
  conversation: Conversation,
  options: ApproveOptions,
  io: RunIo,
): Promise<number> {
  const chosen = decisionsFor(conversation, options);
  if ('problem' in chosen) {
    io.errors.write(`agent-core: ${chosen.problem}\n`);
    return chosen.exitCode;
  }
  let run: ReturnType<Conversation['resume']>;
  try {
    run = conversation.resume({ decisions: chosen.decisions });
  } catch (error) {
    if (!AgentError.isInstance(error) || error.code !== 'approval_already_decided') throw error;
    const decided = (error as AgentError & { decided?: DecidedCall[] }).decided ?? [];
    for (const call of decided) {
      io.errors.write(
        `agent-core: ${call.toolCallId} (${call.toolName}) was already decided: ${call.isError ? 'it was refused, skipped or failed' : 'it ran'} (${call.result.slice(0, 80)}). Nothing was run.\n`,
      );
    }
    if (decided.length === 0) io.errors.write(`agent-core: ${cliWords(error.message)}\n`);
    return exitCodes.failed;
  }
  return finishRun(conversation, run, io);
}

/**
 * The decisions for `approve` and the REPL's `/approve` and `/deny`: the
 * waiting calls named (all when none is), bound to their input hashes. A
 * call of the history that no longer waits is passed on too, so core says
 * what became of it; a call the session never held is a problem here.
 */
export function decisionsFor(
  conversation: Conversation,
  options: ApproveOptions,
): { decisions: ApprovalDecision[] } | { problem: string; exitCode: number } {
  const { session } = conversation;
  const pending = session.agent.pendingApprovals;
  if (options.calls.length === 0 && pending.length === 0) {
    return {
      problem: `session ${session.id} has no tool call waiting for a decision (status ${session.status}); nothing was run. 'agent-core approvals' lists what waits.`,
      exitCode: exitCodes.failed,
    };
  }
  const decision = options.deny ? 'deny' : 'allow';
  const reason = options.reason === undefined ? {} : { reason: options.reason };
  const decisions: ApprovalDecision[] = [];
  for (const given of options.calls.length === 0
    ? pending.map((approval) => approval.toolCallId)
    : options.calls) {
    const matching = pending.filter((approval) => approval.toolCallId.startsWith(given));
    const exact = pending.find((approval) => approval.toolCallId === given);
    if (exact === undefined && matching.length > 1) {
      return {
        problem: `'${given}' is the start of ${matching.length} waiting calls: ${matching.map((approval) => `${approval.toolCallId} (${approval.toolName})`).join(', ')}. Give more of the call's id.`,
        exitCode: exitCodes.usage,
      };
    }
    const waiting = exact ?? matching[0];
    if (waiting !== undefined) {
      const path = waiting.agentPath.length > 0 ? { agentPath: waiting.agentPath } : {};
      decisions.push({
        toolCallId: waiting.toolCallId,
        inputHash: waiting.inputHash,
        decision,
        ...reason,
        ...path,
      });
      continue;
    }
    const call = findCall(conversation, given);
    if (call === undefined) {
      return {
        problem: `session ${session.id} has no tool call '${given}'. Waiting calls: ${pending.map((approval) => approval.toolCallId).join(', ') || 'none'}.`,
        exitCode: exitCodes.usage,
      };
    }
    decisions.push({ toolCallId: call.id, inputHash: inputHash(call.input), decision, ...reason });
  }
  // A call whose tool this process lacks would only fail: say which options bring it, and run nothing.
  const tools = new Set(conversation.agent.tools.map((tool) => tool.name));
  const missing = pending.filter(
    (approval) =>
      decisions.some((chosen) => chosen.toolCallId === approval.toolCallId) &&
      !tools.has(approval.toolName) &&
      approval.agentPath.length === 0,
  );
  if (missing.length > 0 && decision === 'allow') {
    return {
      problem: `the waiting call${missing.length === 1 ? '' : 's'} need${missing.length === 1 ? 's' : ''} the tool${missing.length === 1 ? '' : 's'} ${missing.map((approval) => `'${approval.toolName}'`).join(', ')}, which this process does not have: run approve with the same --tools and --mcp (or config) as the session's runs. Nothing was run.`,
      exitCode: exitCodes.usage,
    };
  }
  return { decisions };
}

function findCall(conversation: Conversation, id: string) {
  for (const message of conversation.session.messages) {
    if (!isModelMessage(message) || message.role !== 'assistant') continue;
    const call =
      toolCallsOf(message).find((block) => block.id === id) ??
      toolCallsOf(message).find((block) => block.id.startsWith(id));
    if (call !== undefined) return call;
  }
  return undefined;
}
