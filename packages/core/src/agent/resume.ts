import type { PromptOptions } from './prompt-options.js';
import { ApprovalError, type DecidedCall } from '../errors/approval-error.js';
import { ConfigError } from '../errors/config-error.js';
import type {
  AgentMessage,
  AssistantMessage,
  ToolCallBlock,
  ToolResultMessage,
} from '../messages/messages.js';
import { messageText } from '../messages/messages.js';
import type { Orchestrator } from '../orchestrator/orchestrator.js';
import { inputHash } from '../governance/input-hash.js';
import type { ApprovalDecision, PendingApproval } from '../governance/pending-approval.js';
import { type CallResume, resumesForPausedCalls } from '../loop/paused-call.js';
import type { RunContext } from '../loop/run-context.js';

/** Options of `agent.resume()`: those of `prompt()` (signal, trace) and the decisions. */
export interface ResumeOptions extends PromptOptions {
  /** Decisions for the pending approvals; each is bound to its call's id and input hash. */
  decisions?: readonly ApprovalDecision[];
}

/** What a resume applies, by call id: a decision for a call of the history, or a paused call to continue. */
export type CheckedDecisions = Map<string, ApprovalDecision | CallResume>;

/**
 * Checks decisions against the history and keeps those still to apply, by
 * call id. Throws `ApprovalError` for a decision naming a call the history
 * does not hold, one whose hash is not that of the call's input, or a
 * malformed one, and `ConfigError` when `decisions` is not an array. A
 * decision for a call already answered is dropped, so an approved call cannot
 * run twice; when every decision given is such a one, nothing would happen,
 * so it throws `ApprovalError` (`approval_already_decided`) saying what became
 * of each call. Decisions for
 * calls inside a paused call (a subagent's) are checked against `pending`
 * and kept with that call (see `resumesForPausedCalls`).
 */
export function checkDecisions(
  messages: readonly AgentMessage[],
  decisions: readonly ApprovalDecision[],
  pending: readonly PendingApproval[] = [],
): CheckedDecisions {
  if (!Array.isArray(decisions))
    throw new ConfigError(
      `resume({ decisions }) takes an array of decisions, got ${decisions === null ? 'null' : typeof decisions}: pass [{ toolCallId, inputHash, decision }], one per call of agent.pendingApprovals.`,
    );
  const kept: CheckedDecisions = new Map();
  const hasPausedCalls = pending.some((approval) => approval.pausedCall !== undefined);
  if (decisions.length === 0 && !hasPausedCalls) return kept;
  const nested: ApprovalDecision[] = [];
  const calls = new Map<string, { call: ToolCallBlock; answered: boolean; result?: ToolResultMessage }>();
  for (const message of messages) {
    const role = (message as { role: string }).role;
    if (role === 'assistant') {
      for (const block of (message as AssistantMessage).content)
        if (block.type === 'toolCall') calls.set(block.id, { call: block, answered: false });
    } else if (role === 'toolResult') {
      const found = calls.get((message as { toolCallId: string }).toolCallId);
      if (found !== undefined) {
        found.answered = true;
        found.result = message as ToolResultMessage;
      }
    }
  }
  const decided = new Map<string, DecidedCall>();
  for (const decision of decisions) {
    const id = decision?.toolCallId;
    if (
      typeof id !== 'string' ||
      typeof decision.inputHash !== 'string' ||
      !['allow', 'allow_always', 'deny'].includes(decision.decision)
    ) {
      throw new ApprovalError(
        'approval_invalid',
        "A decision needs a toolCallId, an inputHash and a decision of 'allow', 'allow_always' or 'deny'; take them from agent.pendingApprovals.",
        typeof id === 'string' ? id : undefined,
      );
    }
    const path = decision.agentPath;
    const found = path !== undefined && path.length > 0 ? undefined : calls.get(id);
    if (found === undefined && hasPausedCalls && path?.length !== 0) {
      nested.push(decision);
      continue;
    }
    if (found === undefined) {
      throw new ApprovalError(
        'approval_unknown_call',
        `No tool call '${id}' is in this agent's history, so the decision cannot apply: it is forged, or meant for another session. Decide the calls in agent.pendingApprovals.`,
        id,
      );
    }
    if (inputHash(found.call.input) !== decision.inputHash) {
      throw new ApprovalError(
        'approval_input_mismatch',
        `The decision for tool call '${id}' (${found.call.name}) was made for other input than the call has; nothing ran. Decide again from agent.pendingApprovals.`,
        id,
      );
    }
    if (found.answered) {
      decided.set(id, decidedCall(found.call, found.result));
      continue;
    }
    if (kept.has(id)) continue;
    kept.set(id, decision);
  }
  if (kept.size === 0 && nested.length === 0 && decided.size > 0) throw alreadyDecided([...decided.values()]);
  if (!hasPausedCalls) return kept;
  const unanswered = new Set<string>();
  for (const [id, { answered }] of calls) if (!answered) unanswered.add(id);
  for (const [id, resume] of resumesForPausedCalls(pending, nested, unanswered)) kept.set(id, resume);
  return kept;
}

function decidedCall(call: ToolCallBlock, result: ToolResultMessage | undefined): DecidedCall {
  const text = result === undefined ? '' : messageText(result).replace(/\s+/g, ' ').trim();
  return {
    toolCallId: call.id,
    toolName: call.name,
    isError: result?.isError === true,
    result: text.length > 200 ? `${text.slice(0, 197)}...` : text,
  };
}

function alreadyDecided(calls: DecidedCall[]): ApprovalError {
  const described = calls
    .map(
      (call) =>
        `'${call.toolCallId}' (${call.toolName}) already has ${call.isError ? 'an error result' : 'its result'}: ${JSON.stringify(call.result)}`,
    )
    .join('; ');
  return new ApprovalError(
    'approval_already_decided',
    `Every decision given is for a call that was already decided, so nothing ran again: ${described}. agent.pendingApprovals lists what still waits.`,
    calls[0]?.toolCallId,
    { decided: calls },
  );
}

/**
 * Wraps the orchestrator for a resumed run (after an approval pause or a
 * crash): first the unanswered calls at the end of the history go through the
 * gate, so they are logged, checked and answered like any call (in call
 * order, or together in parallel mode), then the queued messages, then the
 * orchestrator goes on as if the run had never stopped.
 */
export function resumingOrchestrator(inner: Orchestrator): Orchestrator {
  return {
    name: inner.name,
    async run(orchestratorContext) {
      const context = orchestratorContext as RunContext;
      const calls = context.state.pending.list();
      if (calls.length === 0) {
        // A history that ends with the model's answer has nothing to continue: no model call.
        const last = context.messages.at(-1) as { role?: string } | undefined;
        if (
          last?.role === 'assistant' &&
          context.state.shared.steeringQueue.length === 0 &&
          context.state.shared.followUpQueue.length === 0
        )
          return { reason: 'completed' };
      } else {
        if (context.settings.toolExecution === 'parallel') await context.executeTools(calls);
        else {
          for (const call of calls) {
            if (!context.state.pending.has(call.id)) continue;
            await context.executeTool(call);
            if (context.aborted) break;
            if (context.pollSteering().length > 0) break;
          }
        }
        if (context.aborted) return { reason: context.state.stopCause ?? 'aborted' };
      }
      context.takeQueued();
      return inner.run(context);
    },
  };
}
