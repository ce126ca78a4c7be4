import { AgentError } from '../errors/agent-error.js';
import type { AssistantMessage } from '../messages/messages.js';
import { addUsage } from '../messages/usage.js';
import type { ModelCallOptions, ModelCallResult } from '../orchestrator/orchestrator.js';
import { costOf, type ModelRequest, type Provider } from '../provider/provider.js';
import type { ProviderError } from '../provider/provider-error.js';
import { sleep } from './abortable.js';
import { type Attempt, type AttemptSpan, endMessage, ModelAttempt } from './model-attempt.js';
import type { ContextWindow } from '../context/context-window.js';
import { fitContext, overflowError } from '../context/fit-context.js';
import { type RetryPolicy, resolveRetryPolicy, retryDelay } from './retry-policy.js';
import type { RunContext } from './run-context.js';
import { checkTokenBudget } from '../governance/token-budget.js';

/**
 * Calls the model for one turn: builds the request from the agent's state,
 * streams it while emitting message events, retries retryable failures with
 * backoff (honouring Retry-After), then tries the fallback provider.
 */
export function callModel(context: RunContext, options: ModelCallOptions): Promise<ModelCallResult> {
  const state = context.state;
  let request: ModelRequest;
  try {
    request = buildRequest(context, options);
  } catch (error) {
    // A system prompt or convertToLlm that throws rejects the call, as it always has.
    return Promise.reject(error);
  }
  const window = options.messages === undefined ? state.shared.contextWindow : undefined;
  // The common call goes straight to its attempts: one async frame per model call.
  if (window === undefined && state.shared.options.limits?.maxTokens === undefined)
    return attemptCall(context, options, request, undefined);
  return checkThenCall(context, options, request, window);
}

/** Fits the request to the context window and checks the token budget before the attempts. */
async function checkThenCall(
  context: RunContext,
  options: ModelCallOptions,
  request: ModelRequest,
  window: ContextWindow | undefined,
): Promise<ModelCallResult> {
  const agentOptions = context.state.shared.options;
  if (window !== undefined) {
    const fitted = await fitContext(context, window, request);
    if (!fitted.ok) return fitted.result;
    request = fitted.request;
  }
  const maxTokens = agentOptions.limits?.maxTokens;
  if (maxTokens !== undefined) {
    const overBudget = await checkTokenBudget(context, agentOptions.provider, request, maxTokens);
    if (overBudget !== undefined) return { ok: false, reason: 'max_tokens', error: overBudget };
  }
  return attemptCall(context, options, request, window);
}

/** The attempts of one model call: retries with backoff, then the fallback provider. */
async function attemptCall(
  context: RunContext,
  options: ModelCallOptions,
  request: ModelRequest,
  window: ContextWindow | undefined,
): Promise<ModelCallResult> {
  const state = context.state;
  const agentOptions = state.shared.options;
  // Set once a context overflow was compacted and retried: a second overflow ends the call.
  let overflowRetried = false;
  // Built only when a call fails: the common call allocates no policy and no route list.
  let policy: Required<RetryPolicy> | undefined;

  let lastError: ProviderError | undefined;
  let attempts = 0;
  let provider = agentOptions.provider;
  let routeRequest = request;
  for (let route = 0; ; route++) {
    if (route === 1) {
      const fallback = agentOptions.fallbackProvider;
      if (fallback === undefined) break;
      provider = fallback;
      const model = agentOptions.fallbackModel ?? request.model;
      routeRequest = model === request.model ? request : { ...request, model };
    } else if (route > 1) break;
    for (let attempt = 0; ; attempt++) {
      if (state.stopCause !== undefined) return stopped(context);
      options.onAttemptStart?.(attempts);
      state.modelCalls++;
      if (route === 1) state.fallbacks++;
      const attemptStream = new ModelAttempt(context, provider, routeRequest, options, attempts++);
      try {
        for (let step = attemptStream.open(); step !== undefined; step = attemptStream.next())
          if (attemptStream.take(await step)) break;
      } catch (thrown) {
        attemptStream.threw(thrown);
      }
      const outcome = attemptStream.settle();
      if (outcome.kind === 'done') return finish(context, provider, outcome.message, options, outcome.span);
      if (outcome.kind === 'stopped') {
        if (outcome.partial !== undefined) keepPartial(context, outcome.partial, options);
        return stopped(context);
      }
      lastError = outcome.error;
      if (lastError.kind === 'context_overflow') {
        // Compacted (harder than the window's own count asked for) and retried once; never a loop.
        if (window === undefined || overflowRetried) return failed(overflowError(lastError, overflowRetried));
        overflowRetried = true;
        const fitted = await fitContext(context, window, request, lastError);
        if (!fitted.ok) return fitted.result;
        request = fitted.request;
        routeRequest =
          routeRequest.model === request.model ? request : { ...request, model: routeRequest.model };
        announceRetry(context, outcome, attempt + 1, 0, provider);
        continue;
      }
      // A request the provider refuses (400, auth) fails the same way anywhere: no retry, no fallback.
      if (!lastError.retryable) return failed(lastError);
      policy ??= resolveRetryPolicy(agentOptions.retry);
      if (attempt >= policy.maxRetries) break;
      const delayMs = retryDelay(policy, attempt, lastError);
      announceRetry(context, outcome, attempt + 1, delayMs, provider);
      if (!(await sleep(delayMs, state.abort))) return stopped(context);
    }
  }
  return failed(lastError as ProviderError);
}

/** Counts a retry and emits its event, on the failed attempt's span. */
function announceRetry(
  context: RunContext,
  outcome: Extract<Attempt, { kind: 'failed' }>,
  attempt: number,
  delayMs: number,
  provider: Provider,
): void {
  const state = context.state;
  state.retries++;
  context.deliver({
    type: 'retry',
    runId: state.runId,
    turn: state.turn,
    seq: state.seq++,
    spanId: state.spans.text(outcome.span.span),
    parentSpanId: state.spans.text(outcome.span.parent),
    attempt,
    delayMs,
    error: outcome.error,
    provider: provider.name,
    discardedPartial: outcome.visible,
  });
}

function failed(error: AgentError): ModelCallResult {
  return { ok: false, reason: 'error', error };
}

function stopped(context: RunContext): ModelCallResult {
  const state = context.state;
  const reason = state.stopCause ?? 'aborted';
  return {
    ok: false,
    reason,
    error: new AgentError(
      reason,
      reason === 'timeout'
        ? 'The run timed out during a model call.'
        : 'The run was aborted during a model call.',
    ),
  };
}

function buildRequest(context: RunContext, options: ModelCallOptions): ModelRequest {
  const state = context.state;
  const shared = state.shared;
  const agentOptions = shared.options;
  const messages = options.messages ?? context.modelMessages();

  const system = options.system ?? context.systemPrompt();
  const request: ModelRequest = { model: state.settings.model, messages };
  if (system !== undefined && system !== '') request.system = system;
  const tools = options.tools ?? state.toolSpecs;
  if (tools.length > 0) request.tools = tools;
  if (agentOptions.maxOutputTokens !== undefined) request.maxTokens = agentOptions.maxOutputTokens;
  if (agentOptions.temperature !== undefined) request.temperature = agentOptions.temperature;
  const stopSequences = options.stopSequences ?? agentOptions.stopSequences;
  if (stopSequences !== undefined) request.stopSequences = stopSequences;
  const toolChoice = options.toolChoice ?? agentOptions.toolChoice;
  if (toolChoice !== undefined) request.toolChoice = toolChoice;
  if (options.responseFormat !== undefined) request.responseFormat = options.responseFormat;
  return request;
}

/** Keeps the text of a message cut off by an abort; its tool calls were never complete, so they are dropped. */
function keepPartial(context: RunContext, partial: AssistantMessage, options: ModelCallOptions): void {
  if (options.append === false) return;
  const content = partial.content.filter((block) => block.type === 'text' && block.text !== '');
  if (content.length === 0) return;
  context.append({ ...partial, content, stopReason: 'aborted' });
}

function finish(
  context: RunContext,
  provider: Provider,
  message: AssistantMessage,
  options: ModelCallOptions,
  span: AttemptSpan,
): ModelCallResult {
  const state = context.state;
  if (message.provider === undefined) message.provider = provider.name;
  const usage = message.usage;
  if (usage !== undefined) {
    if (usage.cost === undefined) {
      const pricing = provider.modelInfo?.(message.model ?? state.settings.model)?.pricing;
      if (pricing !== undefined) usage.cost = costOf(usage, pricing);
    }
    addUsage(state.usage, usage);
  }
  let lastCall: string | undefined;
  // Ids of this message's calls so far; a Set only from the second call on, as most turns make one.
  let ids: Set<string> | undefined;
  for (const block of message.content) {
    if (block.type !== 'toolCall') continue;
    if (lastCall !== undefined && ids === undefined) ids = new Set([lastCall]);
    // Some compatible servers repeat or omit ids; every call needs its own so its result pairs with it.
    if (
      typeof block.id !== 'string' ||
      block.id === '' ||
      state.pending.has(block.id) ||
      ids?.has(block.id) === true
    ) {
      block.id = `call_${state.runId.slice(0, 8)}_${state.idCounter++}`;
    }
    ids?.add(block.id);
    if (typeof block.input !== 'object' || block.input === null) block.input = {};
    lastCall = block.id;
  }
  // A response cut off by the output limit may end in a call whose input is incomplete: never run it.
  if (message.stopReason === 'max_tokens' && lastCall !== undefined)
    (state.truncated ??= new Set()).add(lastCall);
  endMessage(context, message, span);
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
  if (options.append !== false && message.content.length > 0) context.append(message);
  return { ok: true, message };
}
