import { AgentError, toAgentError } from '../errors/agent-error.js';
import type { AgentEventOf } from '../events/agent-event.js';
import type { AssistantMessage } from '../messages/messages.js';
import { addUsage } from '../messages/usage.js';
import type { ModelCallOptions, ModelCallResult } from '../orchestrator/orchestrator.js';
import { costOf, type ModelEvent, type ModelRequest, type Provider } from '../provider/provider.js';
import { ProviderError, isProviderErrorKind } from '../provider/provider-error.js';
import { randomSpanId } from '../observability/trace-context.js';
import { sleep } from './abortable.js';
import { callCutOff, watchModelCall } from './model-call-watch.js';
import { fitContext, overflowError } from '../context/fit-context.js';
import { type RetryPolicy, resolveRetryPolicy, retryDelay } from './retry-policy.js';
import type { RunContext } from './run-context.js';
import { checkTokenBudget } from '../governance/token-budget.js';

type Attempt =
  | { kind: 'done'; message: AssistantMessage; span: AttemptSpan }
  | { kind: 'failed'; error: ProviderError; visible: boolean; span: AttemptSpan }
  | { kind: 'stopped'; partial: AssistantMessage | undefined };

/** The span of one attempt: its `message_start`, `message_end` and any `retry` carry it. */
interface AttemptSpan {
  spanId: string;
  parentSpanId: string;
}

/**
 * Calls the model for one turn: builds the request from the agent's state,
 * streams it while emitting message events, retries retryable failures with
 * backoff (honouring Retry-After), then tries the fallback provider.
 */
export async function callModel(context: RunContext, options: ModelCallOptions): Promise<ModelCallResult> {
  const state = context.state;
  const agentOptions = state.shared.options;
  let request = buildRequest(context, options);
  const window = options.messages === undefined ? state.shared.contextWindow : undefined;
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
      const outcome = await streamOnce(context, provider, routeRequest, options, attempts++);
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
      if (!(await sleep(delayMs, context.signal))) return stopped(context);
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
    spanId: outcome.span.spanId,
    parentSpanId: outcome.span.parentSpanId,
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

async function streamOnce(
  context: RunContext,
  provider: Provider,
  request: ModelRequest,
  options: ModelCallOptions,
  attempt: number,
): Promise<Attempt> {
  const state = context.state;
  const idleMs = state.shared.options.streamIdleTimeoutMs ?? 120_000;
  // Every attempt is announced before its request, so it has its own span from the start.
  const span: AttemptSpan = { spanId: randomSpanId(), parentSpanId: state.turnSpanId };
  context.deliver({
    type: 'message_start',
    runId: state.runId,
    turn: state.turn,
    seq: state.seq++,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId,
    provider: provider.name,
    model: request.model,
    attempt,
  });
  // Only until the run's first token is timed: later attempts read no clock.
  const requestedAt = state.timeToFirstTokenMs === undefined ? performance.now() : 0;
  // The run's calls share one controller and one idle timer; an event costs a counter bump.
  const watch = watchModelCall(state, idleMs);
  const signal = watch.signal;
  let idle = false;

  let visible = false;
  let message: AssistantMessage | undefined;
  let error: ProviderError | undefined;
  const onTextDelta = options.onTextDelta;
  let iterator: AsyncIterator<ModelEvent> | undefined;
  let ended = false;
  // The text shown so far: kept when an abort cuts the stream off before the provider answers it.
  const shown: string[] = [];
  try {
    iterator = provider.stream(request, { signal })[Symbol.asyncIterator]();
    for (;;) {
      if (signal.aborted) break;
      const next = iterator.next();
      // The watch wakes this wait when it aborts the call (no listener per call): a provider
      // that ignores its signal cannot hold the run, and what it yields later is ignored.
      const step = await new Promise<IteratorResult<ModelEvent>>((resolve, reject) => {
        watch.wake = resolve;
        next.then(resolve, reject);
      });
      watch.wake = undefined;
      if (step === callCutOff) break;
      if (step.done === true) {
        ended = true;
        break;
      }
      const event = step.value;
      watch.touch();
      if (state.timeToFirstTokenMs === undefined && event.type !== 'usage' && event.type !== 'error')
        state.timeToFirstTokenMs = performance.now() - requestedAt;
      if (event.type === 'done') {
        message = event.message;
        break;
      }
      if (event.type === 'error') {
        error = asProviderError(event.error, provider);
        break;
      }
      if (event.type === 'text_delta') {
        visible = true;
        shown.push(event.delta);
        if (onTextDelta !== undefined) onTextDelta(event.delta);
        else
          context.deliver({
            type: 'text_delta',
            runId: state.runId,
            turn: state.turn,
            seq: state.seq++,
            delta: event.delta,
          });
      } else if (event.type === 'thinking_delta') {
        visible = true;
        context.deliver({
          type: 'thinking_delta',
          runId: state.runId,
          turn: state.turn,
          seq: state.seq++,
          delta: event.delta,
        });
      }
    }
  } catch (thrown) {
    error = ProviderError.isInstance(thrown)
      ? thrown
      : new ProviderError({
          kind: 'fatal',
          provider: provider.name,
          message: `Provider '${provider.name}' threw instead of reporting an error event: ${toAgentError(thrown).message}`,
          cause: thrown,
        });
  } finally {
    watch.wake = undefined;
    idle = watch.end();
    // A stream left before its end is closed, as for-await would, so the provider can clean up;
    // without waiting, since a deaf provider may never answer.
    if (iterator !== undefined && !ended) closeQuietly(iterator);
  }

  if (state.stopCause !== undefined) {
    const partial = message ?? abortedMessage(provider, request, shown);
    endMessage(context, partial, span);
    return { kind: 'stopped', partial };
  }
  if (idle) {
    // Cut off for going silent: whatever the provider made of its abort (often a done
    // with stopReason 'aborted') is not an answer. A retryable network failure instead.
    message = undefined;
    error = new ProviderError({
      kind: 'network',
      provider: provider.name,
      message: `The model stream sent nothing for ${idleMs} ms and was closed (streamIdleTimeoutMs).`,
    });
  }
  if (message === undefined && error === undefined) {
    error = new ProviderError({
      kind: 'malformed',
      provider: provider.name,
      message: `Provider '${provider.name}' ended its stream without a done or error event.`,
    });
  }
  if (error !== undefined) {
    endMessage(
      context,
      {
        role: 'assistant',
        content: [],
        stopReason: 'error',
        provider: provider.name,
        model: request.model,
        errorMessage: error.message,
      },
      span,
      error,
    );
    return { kind: 'failed', error, visible, span };
  }
  return { kind: 'done', message: message as AssistantMessage, span };
}

function closeQuietly(iterator: AsyncIterator<ModelEvent>): void {
  try {
    iterator.return?.()?.then(undefined, ignore);
  } catch {
    // A provider whose return() throws has nothing more to say.
  }
}

function ignore(): void {}

/** A JavaScript provider may report a plain Error: core hands on a ProviderError whatever it got. */
function asProviderError(error: unknown, provider: Provider): ProviderError {
  if (ProviderError.isInstance(error)) return error;
  const kind = (error as { kind?: unknown } | undefined)?.kind;
  return new ProviderError({
    kind: typeof kind === 'string' && isProviderErrorKind(kind) ? kind : 'fatal',
    provider: provider.name,
    message: `Provider '${provider.name}' reported an error: ${toAgentError(error).message}`,
    cause: error,
  });
}

function abortedMessage(provider: Provider, request: ModelRequest, shown: string[] = []): AssistantMessage {
  return {
    role: 'assistant',
    content: shown.length === 0 ? [] : [{ type: 'text', text: shown.join('') }],
    stopReason: 'aborted',
    provider: provider.name,
    model: request.model,
  };
}

function endMessage(
  context: RunContext,
  message: AssistantMessage,
  span: AttemptSpan,
  error?: ProviderError,
): void {
  const state = context.state;
  const event: AgentEventOf<'message_end'> = {
    type: 'message_end',
    runId: state.runId,
    turn: state.turn,
    seq: state.seq++,
    spanId: span.spanId,
    parentSpanId: span.parentSpanId,
    message,
  };
  if (error !== undefined) event.error = error;
  context.deliver(event);
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
  if (message.stopReason === 'max_tokens' && lastCall !== undefined) state.truncated.add(lastCall);
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
