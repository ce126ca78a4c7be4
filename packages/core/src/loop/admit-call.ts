import { GuardError } from '../errors/guard-error.js';
import { RunStoppedError } from '../errors/run-error.js';
import type { AgentMessage, AssistantMessage, ToolCallBlock } from '../messages/messages.js';
import type { RunContext } from './run-context.js';
import type { AnyTool, ToolRisk } from '../tool/tool.js';
import type { ApprovalAnswer, ApprovalChoice, ApprovalRequest } from '../governance/approval.js';
import { guardVerdict, observeCall } from './guard-check.js';
import { inputHash } from '../governance/input-hash.js';
import { missingIntentText, parseIntents, type Intent } from '../governance/intent.js';
import type { PendingApproval } from '../governance/pending-approval.js';
import {
  defaultToolRisk,
  higherRisk,
  isToolRisk,
  type PolicyDecision,
  type PolicyRunInfo,
  type PolicyVerdict,
} from '../governance/policy.js';
import type { RunGovernance } from './run-governance.js';
import { isoNow } from '../time/iso-now.js';

/** Why the gate did not let a call run: an error result, or a pause for a person's decision. */
export type GateRefusal = { ok: false; message: string; paused?: true };

/**
 * The governance part of the gate, after input validation and the
 * `beforeToolCall` hook: intent, guard, policy, then a decision (a resume's,
 * a remembered "allow always", or the approver's). Resolves `undefined` when
 * the call may run. Never throws: a failing policy, guard or approver refuses.
 */
export async function admitCall(
  context: RunContext,
  governance: RunGovernance,
  call: ToolCallBlock,
  tool: AnyTool,
): Promise<GateRefusal | undefined> {
  let risk: ToolRisk = tool.risk ?? defaultToolRisk;
  let intentReason: string | undefined;
  if (governance.intentRequired) {
    const intent = findIntent(context, governance, call);
    if (intent === undefined) return refuse(missingIntentText(call.name, risk));
    if (intent.risk !== undefined) {
      if (!isToolRisk(intent.risk)) {
        return refuse(
          `Tool call '${call.name}' was refused: its intent declares risk "${intent.risk}", which is not one of read, write, network, execute. Declare <intent tool="${call.name}" risk="${risk}">why</intent> and call it again.`,
        );
      }
      risk = higherRisk(risk, intent.risk);
    }
    intentReason = intent.reason;
  }

  let askReason: string | undefined;
  if (governance.guard !== undefined) {
    const { action, reason } = guardVerdict(governance, observeCall(context, governance, call, tool));
    if (action !== 'ok') context.emit({ type: 'guard', action, reason, toolCall: call });
    if (action === 'block') return refuse(`Tool call '${call.name}' was refused by the guard: ${reason}.`);
    if (action === 'kill') {
      halt(context, { reason: 'error', error: new GuardError(reason) });
      return refuse(`Tool call '${call.name}' was not run: the guard ended the run (${reason}).`);
    }
    if (action === 'pause') askReason = `the guard asks: ${reason}`;
  }

  if (governance.policy !== undefined) {
    const { decision, reason } = await decide(context, governance, call, tool, risk, intentReason);
    context.emit({ type: 'policy', toolCall: call, risk, decision, reason, policy: governance.policy.name });
    if (decision === 'deny') {
      return refuse(
        `Tool call '${call.name}' was denied: ${reason}. Do not call it again; find another way or ask the user.`,
      );
    }
    if (decision === 'ask') askReason ??= reason;
  }

  const decided = governance.decisions.get(call.id);
  if (decided !== undefined) {
    // Taken out before anything else happens: a decision applies once, whatever follows.
    governance.decisions.delete(call.id);
    if (inputHash(call.input) !== decided.inputHash) {
      return refuse(`Tool call '${call.name}' was not run: its approval was given for other input.`);
    }
    if ('kind' in decided) {
      // A call that paused inside (a subagent) was admitted when it first ran: it continues, asking no one again.
      (governance.resumes ??= new Map()).set(call.id, decided.resume);
      return undefined;
    }
    context.emit({
      type: 'approval',
      toolCall: call,
      decision: decided.decision,
      reason: decided.decision === 'deny' ? decided.reason : undefined,
      source: 'decision',
    });
    if (decided.decision === 'deny') return refuse(deniedText(call.name, decided.reason));
    if (decided.decision === 'allow_always') remember(governance, call.name);
    return undefined;
  }
  if (askReason === undefined) return undefined;
  if (governance.memory.alwaysAllowed.includes(call.name)) {
    context.emit({ type: 'approval', toolCall: call, decision: 'allow_always', source: 'remembered' });
    return undefined;
  }

  const pending = pendingApproval(call, risk, askReason);
  context.emit({ type: 'approval_request', approval: pending });
  const approve = governance.approve;
  if (approve !== undefined) {
    const answer = await ask(context, approve, pending, call);
    if (answer === 'aborted') {
      context.emit({
        type: 'approval',
        toolCall: call,
        decision: 'deny',
        reason: 'aborted',
        source: 'abort',
      });
      return refuse(`Tool call '${call.name}' was denied: the run was aborted while it waited for approval.`);
    }
    context.emit({
      type: 'approval',
      toolCall: call,
      decision: answer.decision,
      reason: answer.reason,
      source: 'approver',
    });
    if (answer.decision === 'allow') return undefined;
    if (answer.decision === 'allow_always') {
      remember(governance, call.name);
      return undefined;
    }
    if (answer.decision === 'deny') return refuse(deniedText(call.name, answer.reason));
  }
  return pause(context, governance, call, pending);
}

/** The result text of a call a person denied: the same whether the approver or a resume's decision said it. */
function deniedText(toolName: string, reason: string | undefined): string {
  return `Tool call '${toolName}' was denied by the user: ${reason === undefined || reason === '' ? 'no reason given' : reason}.`;
}

function refuse(message: string): GateRefusal {
  return { ok: false, message };
}

function remember(governance: RunGovernance, toolName: string): void {
  if (!governance.memory.alwaysAllowed.includes(toolName)) governance.memory.alwaysAllowed.push(toolName);
}

function pendingApproval(call: ToolCallBlock, risk: ToolRisk, reason: string): PendingApproval {
  return {
    toolCallId: call.id,
    toolName: call.name,
    input: call.input,
    inputHash: inputHash(call.input),
    risk,
    reason,
    agentPath: [],
    requestedAt: isoNow(),
  };
}

/** Marks the run to end; `stopForHalt` aborts it once the calls admitted with this one have run. */
function halt(context: RunContext, value: NonNullable<RunContext['state']['halt']>): void {
  context.state.halt ??= value;
}

/**
 * Aborts the run's signal after governance halted it, so every orchestrator
 * stops at its next check; core then reports the halt instead of `aborted`.
 */
export function stopForHalt(context: RunContext): void {
  const run = context.state.abort;
  if (!run.aborted)
    run.abort(new RunStoppedError('aborted', 'The run stopped for governance: see the result.'));
}

/**
 * Stops the run with `await_user`. The call and every later unanswered call
 * of the same response stay unanswered in the history; those that will need
 * a decision too are listed now, so a person decides them all at once.
 */
async function pause(
  context: RunContext,
  governance: RunGovernance,
  call: ToolCallBlock,
  pending: PendingApproval,
): Promise<GateRefusal> {
  const paused = (governance.paused ??= []);
  paused.push(pending);
  let after = false;
  for (const other of context.state.pending.list()) {
    if (other.id === call.id) {
      after = true;
      continue;
    }
    if (!after || governance.decisions.has(other.id)) continue;
    const preview = await previewCall(context, governance, other);
    if (preview !== undefined) {
      paused.push(preview);
      context.emit({ type: 'approval_request', approval: preview });
    }
  }
  halt(context, { reason: 'await_user', pendingApprovals: paused });
  return { ok: false, message: `Tool call '${call.name}' waits for approval.`, paused: true };
}

/** Whether a later call will need a decision, without running it, asking anyone, or emitting policy events. */
async function previewCall(
  context: RunContext,
  governance: RunGovernance,
  call: ToolCallBlock,
): Promise<PendingApproval | undefined> {
  const prepared = context.state.toolsByName.get(call.name);
  if (prepared === undefined || governance.policy === undefined) return undefined;
  if (!prepared.validate(call.input).ok) return undefined;
  if (governance.memory.alwaysAllowed.includes(call.name)) return undefined;
  let risk: ToolRisk = prepared.tool.risk ?? defaultToolRisk;
  let intentReason: string | undefined;
  if (governance.intentRequired) {
    const intent = findIntent(context, governance, call);
    if (intent === undefined || (intent.risk !== undefined && !isToolRisk(intent.risk))) return undefined;
    risk = higherRisk(risk, intent.risk as ToolRisk | undefined);
    intentReason = intent.reason;
  }
  const { decision, reason } = await decide(context, governance, call, prepared.tool, risk, intentReason);
  return decision === 'ask' ? pendingApproval(call, risk, reason) : undefined;
}

async function decide(
  context: RunContext,
  governance: RunGovernance,
  call: ToolCallBlock,
  tool: AnyTool,
  risk: ToolRisk,
  intent: string | undefined,
): Promise<{ decision: PolicyDecision; reason: string }> {
  const policy = governance.policy;
  if (policy === undefined) return { decision: 'allow', reason: 'no policy' };
  const state = context.state;
  let verdict: PolicyVerdict;
  try {
    const messages = state.shared.messages;
    const info: PolicyRunInfo =
      intent === undefined
        ? { runId: state.runId, turn: state.turn, risk, messages }
        : { runId: state.runId, turn: state.turn, risk, intent, messages };
    verdict = await policy.decide(call, tool, info);
  } catch (error) {
    return { decision: 'deny', reason: `policy '${policy.name}' failed (${errorText(error)})` };
  }
  const decision = typeof verdict === 'string' ? verdict : verdict?.decision;
  if (decision !== 'allow' && decision !== 'ask' && decision !== 'deny') {
    return { decision: 'deny', reason: `policy '${policy.name}' gave no decision` };
  }
  const reason = typeof verdict === 'string' ? undefined : verdict.reason;
  return { decision, reason: reason ?? `policy '${policy.name}' says '${decision}'` };
}

async function ask(
  context: RunContext,
  approve: NonNullable<RunGovernance['approve']>,
  pending: PendingApproval,
  call: ToolCallBlock,
): Promise<{ decision: ApprovalChoice; reason?: string } | 'aborted'> {
  const signal = context.signal;
  if (signal.aborted) return 'aborted';
  let answer: ApprovalAnswer | PromiseLike<ApprovalAnswer>;
  try {
    // Not `{ ...pending, toolCall: call, signal }`: on Node 20 keys added after a spread take microseconds.
    const request = Object.assign({}, pending) as ApprovalRequest;
    request.toolCall = call;
    request.signal = signal;
    answer = approve(request);
    // An approver that answers at once (a rule, a test) is not raced with the signal: only checked after.
    if (!isPromiseLike(answer)) return signal.aborted ? 'aborted' : normalizeAnswer(answer);
  } catch (error) {
    return approverFailed(error);
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const settled = await Promise.race([answer, aborted]);
    if (settled === 'aborted') return 'aborted';
    return normalizeAnswer(settled);
  } catch (error) {
    return approverFailed(error);
  } finally {
    signal.removeEventListener('abort', onAbort as () => void);
  }
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function approverFailed(error: unknown): { decision: ApprovalChoice; reason: string } {
  return { decision: 'deny', reason: `the approver failed (${errorText(error)})` };
}

function normalizeAnswer(answer: ApprovalAnswer): { decision: ApprovalChoice; reason?: string } {
  const decision = typeof answer === 'string' ? answer : answer?.decision;
  if (decision !== 'allow' && decision !== 'allow_always' && decision !== 'deny' && decision !== 'later') {
    return { decision: 'deny', reason: 'the approver gave no valid answer' };
  }
  const reason = typeof answer === 'string' ? undefined : answer.reason;
  return reason === undefined ? { decision } : { decision, reason };
}

/** The intent covering a call: one declared for its tool in the same assistant message. */
function findIntent(context: RunContext, governance: RunGovernance, call: ToolCallBlock): Intent | undefined {
  const message = messageOf(context, call);
  if (message === undefined) return undefined;
  let intents = governance.intents.get(message);
  if (intents === undefined) {
    intents = parseIntents(message);
    governance.intents.set(message, intents);
  }
  return intents.find((intent) => intent.tool === call.name);
}

function messageOf(context: RunContext, call: ToolCallBlock): AssistantMessage | undefined {
  const last = context.state.lastAssistant;
  if (last?.content.includes(call)) return last;
  // A resumed run has not appended the message that made the call: it is the last assistant message of the history.
  const messages = context.state.shared.messages;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as AgentMessage & { role: string };
    if (message.role === 'assistant') {
      const assistant = message as AssistantMessage;
      return assistant.content.some((block) => block.type === 'toolCall' && block.id === call.id)
        ? assistant
        : undefined;
    }
  }
  return undefined;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
