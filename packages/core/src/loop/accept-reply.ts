import { ContractError } from '../orchestrator/contract-error.js';
import type { AgentMessage, AssistantMessage, ToolCallBlock } from '../messages/messages.js';
import { addUsage } from '../messages/usage.js';
import type { ModelCallOptions, ModelCallResult } from '../orchestrator/orchestrator.js';
import { costOf, type Provider } from '../provider/provider.js';
import { endMessage, type ModelAttempt } from './model-attempt.js';
import type { RecoveredCall } from './streamed-calls.js';
import type { RunContext } from './run-context.js';
import { toolInputProblem } from './tool-input-problem.js';

/**
 * Makes a provider's reply the history's: the calls its stream showed kept,
 * the provider and cost noted, ids given or refused when duplicated, unusable
 * inputs answered with an error instead of run, the usage counted and the
 * message appended. Refuses a reply whose ids clash with the history's.
 */
export function acceptReply(
  context: RunContext,
  provider: Provider,
  reply: AssistantMessage,
  options: ModelCallOptions,
  attempt: ModelAttempt,
): ModelCallResult {
  const state = context.state;
  // The reply becomes the history's (and is frozen there). A reply the provider froze (one it
  // reuses, say) is copied where core writes to it: a failed write says so, where asking
  // Object.isFrozen first would cost about 45 ns per reply.
  let message = reply;
  const recovered = attempt.streamed?.missingFrom(message);
  if (recovered !== undefined && recovered.length > 0)
    message = withRecovered(context, message, recovered, provider);
  if (message.provider === undefined) {
    try {
      message.provider = provider.name;
    } catch {
      message = { ...message, provider: provider.name };
    }
  }
  let usage = message.usage;
  if (usage !== undefined) {
    if (usage.cost === undefined) {
      const pricing = provider.modelInfo?.(message.model ?? state.settings.model)?.pricing;
      if (pricing !== undefined) {
        const cost = costOf(usage, pricing);
        try {
          usage.cost = cost;
        } catch {
          usage = { ...usage, cost };
          message = { ...message, usage };
        }
      }
    }
    addUsage(state.usage, usage);
  }
  // Set once a call of the reply is rewritten: the message and its content are then core's own copies.
  let rewritten = false;
  let lastCall: ToolCallBlock | undefined;
  // Ids of this message's calls so far; a Set only from the second call on, as most turns make one.
  let ids: Set<string> | undefined;
  let history: Set<string> | undefined;
  const content = message.content;
  for (let index = 0; index < content.length; index++) {
    let block = content[index] as AssistantMessage['content'][number];
    if (block.type !== 'toolCall') continue;
    history ??= state.shared.toolCallIds ??= toolCallIdsOf(state.shared.messages);
    const id: unknown = block.id;
    const named = typeof id === 'string' && id !== '';
    // An id an earlier call of the history has: a provider would refuse the history, on every later turn too.
    if (named && history.has(id)) return duplicateId(context, message, id, attempt, 'history');
    if (lastCall !== undefined && ids === undefined) ids = new Set([lastCall.id]);
    // Two calls of one reply with one id: their results could not be told apart. Never renamed silently.
    if (named && (ids?.has(id) === true || lastCall?.id === id))
      return duplicateId(context, message, id, attempt, 'reply');
    let input = block.input;
    const problem = input === undefined ? undefined : toolInputProblem(input);
    // A call without an id gets one (nothing is renamed); input kept as it came would make every
    // later request of the history fail to serialise or send.
    if (!named || input === undefined || problem !== undefined) {
      input = problem !== undefined || input === undefined ? {} : input;
      block = {
        ...block,
        id: named ? (id as string) : `call_${state.runId.slice(0, 8)}_${state.idCounter++}`,
        input,
      };
      // Never written into the provider's objects, which may be an earlier reply's (frozen, or shared).
      if (!rewritten) {
        message = { ...message, content: message.content.slice() };
        rewritten = true;
      }
      (message.content as AssistantMessage['content'])[index] = block;
      if (problem !== undefined)
        (state.refused ??= new Map()).set(
          block.id,
          `Tool call '${block.name}' was not run: ${problem}. Call it again with a JSON object of arguments that fits the tool's parameters.`,
        );
    }
    ids?.add(block.id);
    lastCall = block;
  }
  // A response cut off by the output limit may end in a call whose input is incomplete: never run it.
  if (message.stopReason === 'max_tokens' && lastCall !== undefined)
    (state.refused ??= new Map()).set(
      lastCall.id,
      `Tool call '${lastCall.name}' was cut off by the output token limit (max_tokens) before its input was complete, so it was not run. Call it again with a shorter input.`,
    );
  endMessage(context, message, attempt.span, attempt.parentSpan);
  if (usage !== undefined) {
    context.deliver({
      type: 'usage',
      runId: state.runId,
      turn: state.turn,
      seq: state.seq++,
      usage,
      total: { ...state.usage },
    });
  }
  state.turnMessage = message;
  if (options.append !== false && message.content.length > 0) context.append(message);
  return { ok: true, message };
}

/**
 * The reply with the tool calls its stream showed but its final message
 * lacks: the model made them, so they are run (or answered) like any other.
 * A call whose streamed arguments cannot be used is answered with an error
 * saying so. Logged as a warning: the provider should put them in `done`.
 */
function withRecovered(
  context: RunContext,
  message: AssistantMessage,
  recovered: readonly RecoveredCall[],
  provider: Provider,
): AssistantMessage {
  const state = context.state;
  for (const { block, problem } of recovered) {
    if (problem === undefined) continue;
    (state.refused ??= new Map()).set(
      block.id,
      `Tool call '${block.name}' was not run: ${problem}. Call it again with a JSON object of arguments that fits the tool's parameters.`,
    );
  }
  state.shared.logger.warn(
    `provider '${provider.name}' streamed tool calls its final message lacks; they were kept from the stream. A provider's done message must hold every call it streamed.`,
    { toolCallIds: recovered.map(({ block }) => block.id) },
  );
  const content = [...message.content, ...recovered.map(({ block }) => block)];
  return {
    ...message,
    content,
    stopReason: message.stopReason === 'end_turn' ? 'tool_use' : message.stopReason,
  };
}

/** The ids of every tool call in `messages`. */
function toolCallIdsOf(messages: readonly AgentMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if ((message as { role: string }).role !== 'assistant') continue;
    for (const block of (message as AssistantMessage).content)
      if (block.type === 'toolCall') ids.add(block.id);
  }
  return ids;
}

/** Refuses a reply with a tool-call id it uses twice or an earlier call of the history has: nothing of it is appended, and the run ends with the error. */
function duplicateId(
  context: RunContext,
  message: AssistantMessage,
  id: string,
  attempt: ModelAttempt,
  where: 'history' | 'reply',
): ModelCallResult {
  const source = [message.provider, message.model]
    .filter((part) => part !== undefined && part !== '')
    .join(' ');
  const what =
    where === 'history'
      ? `has a tool call with id '${id}', which an earlier call of this history already has`
      : `has two tool calls with id '${id}'`;
  const error = new ContractError(
    'duplicate_tool_call_id',
    `The model's reply (${source || 'its provider'}) ${what}. Providers refuse a history with two calls of one id, and their results could not be told apart, so the reply was not added and no tool ran. The provider or model should make unique ids; the conversation can go on with another prompt.`,
  );
  endMessage(context, message, attempt.span, attempt.parentSpan);
  return { ok: false, reason: 'error', error };
}
