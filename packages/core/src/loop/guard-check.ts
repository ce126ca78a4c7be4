import { GuardError } from '../errors/guard-error.js';
import type { AgentMessage, AssistantMessage, ToolCallBlock } from '../messages/messages.js';
import type { RunContext } from './run-context.js';
import type { AnyTool } from '../tool/tool.js';
import { canonicalJson } from '../governance/canonical-json.js';
import type { GuardAction, GuardObservation, GuardVerdict } from '../governance/guard.js';
import type { RunGovernance } from './run-governance.js';

/** Asks the run's guard about an observation; a throw counts as `kill` (fail closed). */
export function guardVerdict(
  governance: RunGovernance,
  observation: GuardObservation,
): { action: GuardAction; reason: string } {
  const guard = governance.guard;
  if (guard === undefined) return { action: 'ok', reason: '' };
  let verdict: GuardVerdict;
  try {
    verdict = guard.check(observation);
  } catch (error) {
    return { action: 'kill', reason: `guard '${guard.name}' failed (${errorText(error)})` };
  }
  if (typeof verdict === 'string')
    return { action: verdict, reason: `guard '${guard.name}' says '${verdict}'` };
  return { action: verdict.action, reason: verdict.reason };
}

/** Checks the guard before a model call: `warn` emits, `pause` and `kill` stop the run. Only runs with a guard call it. */
export function guardModelCall(
  context: RunContext,
  governance: RunGovernance,
): 'await_user' | 'error' | undefined {
  const state = context.state;
  const { action, reason } = guardVerdict(governance, {
    kind: 'model_call',
    ...runObservation(context, governance, performance.now()),
  });
  if (action === 'ok') return undefined;
  context.emit({ type: 'guard', action, reason });
  if (action === 'kill') {
    state.halt ??= { reason: 'error', error: new GuardError(reason) };
    return 'error';
  }
  // A model call cannot be refused on its own: `block` pauses like `pause`.
  if (action === 'pause' || action === 'block') {
    state.halt ??= { reason: 'await_user', pendingApprovals: [] };
    return 'await_user';
  }
  return undefined;
}

function runObservation(context: RunContext, governance: RunGovernance, now: number) {
  const state = context.state;
  const times = governance.callTimes;
  while (times.length > 0 && (times[0] as number) < now - 60_000) times.shift();
  return {
    runId: state.runId,
    turn: state.turn,
    usage: state.usage,
    maxTokens: state.shared.options.limits?.maxTokens,
    elapsedMs: now - governance.startedAt,
    toolCallsInLastMinute: times.length,
  };
}

export function observeCall(
  context: RunContext,
  governance: RunGovernance,
  call: ToolCallBlock,
  tool: AnyTool,
): GuardObservation {
  const now = performance.now();
  governance.callTimes.push(now);
  return {
    kind: 'tool_call',
    toolCall: call,
    tool,
    repeats: countRepeats(context.state.shared.messages, call),
    ...runObservation(context, governance, now),
  };
}

const maxRepeatsCounted = 64;

/**
 * Identical calls (same tool, same canonical input) in a row up to and
 * including `call`, read from the history itself, so the count is the same
 * after a restart. A user message ends the row; the scan stops at the first
 * different call.
 */
function countRepeats(messages: readonly AgentMessage[], call: ToolCallBlock): number {
  let key: string | undefined;
  let repeats = 0;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as AgentMessage & { role: string };
    if (message.role === 'toolResult') continue;
    if (message.role !== 'assistant') {
      if (key !== undefined) break;
      continue;
    }
    const content = (message as AssistantMessage).content;
    for (let blockIndex = content.length - 1; blockIndex >= 0; blockIndex--) {
      const block = content[blockIndex];
      if (block?.type !== 'toolCall') continue;
      if (key === undefined) {
        if (block.id !== call.id) continue;
        key = canonicalJson(call.input);
        repeats = 1;
        continue;
      }
      if (block.name !== call.name || canonicalJson(block.input) !== key) return repeats;
      if (++repeats >= maxRepeatsCounted) return repeats;
    }
  }
  return repeats;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
