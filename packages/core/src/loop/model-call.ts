import { AgentError } from '../errors/agent-error.js';
import { ContractError } from '../orchestrator/contract-error.js';
import type { RecoveredCall } from './streamed-calls.js';
import type { AgentMessage, AssistantMessage, ToolCallBlock } from '../messages/messages.js';
import { addUsage } from '../messages/usage.js';
import type { ModelCallOptions, ModelCallResult } from '../orchestrator/orchestrator.js';
import { costOf, type ModelRequest, type Provider } from '../provider/provider.js';
import type { ProviderError } from '../provider/provider-error.js';
import { sleep } from './abortable.js';
import { type AttemptOwner, endMessage, ModelAttempt } from './model-attempt.js';
import type { ContextWindow } from '../context/context-window.js';
import { fitContext, overflowError } from './fit-context.js';
import { type RetryPolicy, resolveRetryPolicy, retryDelay } from './retry-policy.js';
import { toolInputProblem } from './tool-input-problem.js';
import type { RunContext } from './run-context.js';

// The resolve function of a call's promise, handed over by `capture` while `new Promise` runs
// it (synchronously): a call makes no executor closure of its own, and keeps no reject function
// while it waits (a failure resolves the promise with a rejected one, which rejects it alike).
let capturedResolve: ((result: ModelCallResult | Promise<never>) => void) | undefined;
function capture(resolve: (result: ModelCallResult | Promise<never>) => void): void {
  capturedResolve = resolve;
}

/**
 * The attempts of one model call: retries with backoff, then the fallback
 * provider. The call's result is its own promise, settled by whichever frame
 * ends the call: the first, or the one a cut-off started (see `ModelAttempt`),
 * so the stream's events are awaited as the provider gives them, with no
 * promise of the call's own per event.
 */
export class ModelCall implements AttemptOwner {
  readonly #context: RunContext;
  readonly #options: ModelCallOptions;
  readonly #window: ContextWindow | undefined;
  #request: ModelRequest;
  /** 0: the agent's provider; 1: the fallback provider; 2: every route is spent. */
  #route = 0;
  /** Failed attempts on the current route: the retry count. */
  #routeAttempts = 0;
  /** Attempts on every route: the number `message_start` and `onAttemptStart` carry. */
  #attempts = 0;
  #provider: Provider;
  #routeRequest: ModelRequest;
  /** Set once a context overflow was compacted and retried: a second overflow ends the call. */
  #overflowRetried = false;
  /** Built only when a call fails: the common call allocates no policy and no route list. */
  #policy: Required<RetryPolicy> | undefined;
  #lastError: ProviderError | undefined;
  #resolve: (result: ModelCallResult | Promise<never>) => void = ignore;

  constructor(
    context: RunContext,
    options: ModelCallOptions,
    request: ModelRequest,
    window: ContextWindow | undefined,
  ) {
    this.#context = context;
    this.#options = options;
    this.#request = request;
    this.#routeRequest = request;
    this.#window = window;
    this.#provider = context.state.shared.options.provider;
  }

  start(): Promise<ModelCallResult> {
    const result = new Promise<ModelCallResult>(capture);
    this.#resolve = capturedResolve as (result: ModelCallResult | Promise<never>) => void;
    capturedResolve = undefined;
    void this.#attempt(undefined);
    return result;
  }

  continueAfterCutOff(attempt: ModelAttempt): void {
    // Never inside the cut-off itself: it may come from a listener in the middle of an event.
    queueMicrotask(() => void this.#attempt(attempt));
  }

  /**
   * Runs attempts until the call has its result and settles the call's
   * promise with it; starts by ending `cutOff` when a cut-off handed it over.
   * Returns without a word once a cut-off took its attempt: the call goes on
   * in the frame the cut-off started. Never rejects.
   */
  async #attempt(cutOff: ModelAttempt | undefined): Promise<void> {
    try {
      let attempt = cutOff;
      for (;;) {
        if (attempt === undefined) {
          const started = this.#startAttempt();
          if (!(started instanceof ModelAttempt)) return this.#resolve(started);
          attempt = started;
          try {
            for (let step = attempt.open(); step !== undefined; step = attempt.next()) {
              const event = await step;
              // A cut-off took the attempt over while the provider kept this frame waiting.
              if (attempt.claimed) return;
              if (attempt.take(event)) break;
            }
          } catch (thrown) {
            if (attempt.claimed) return;
            attempt.threw(thrown);
          }
          if (!attempt.claim()) return;
        }
        const ended = this.#end(attempt);
        attempt = undefined;
        // A result ends the call; undefined (at once, or after a backoff or a compaction) tries again.
        const result = ended instanceof Promise ? await ended : ended;
        if (result !== undefined) return this.#resolve(result);
      }
    } catch (error) {
      this.#resolve(Promise.reject(error));
    }
  }

  /** The next attempt, announced and counted; or the call's result when there is none to make. */
  #startAttempt(): ModelAttempt | ModelCallResult {
    const context = this.#context;
    const state = context.state;
    const provider = this.#nextRoute();
    if (provider === undefined) return failed(this.#lastError as ProviderError);
    if (state.stopCause !== undefined) return stopped(context);
    const options = this.#options;
    options.onAttemptStart?.(this.#attempts);
    state.modelCalls++;
    if (this.#route === 1) state.fallbacks++;
    return new ModelAttempt(context, provider, this.#routeRequest, options, this.#attempts++, this);
  }

  /**
   * Settles an attempt that has ended: the call's result, or undefined to try
   * again (at once, or once the promise returned has waited out a backoff or
   * compacted the context).
   */
  #end(attempt: ModelAttempt): ModelCallResult | undefined | Promise<ModelCallResult | undefined> {
    const context = this.#context;
    const options = this.#options;
    const provider = this.#provider;
    const end = attempt.settle();
    if (end === 'done')
      return finish(context, provider, attempt.message as AssistantMessage, options, attempt);
    if (end === 'stopped') {
      const partial = attempt.message;
      if (partial !== undefined) keepPartial(context, partial, options);
      return stopped(context);
    }
    const error = attempt.error as ProviderError;
    this.#lastError = error;
    const retry = this.#routeAttempts;
    this.#routeAttempts++;
    // Compacted (harder than the window's own count asked for) and retried once; never a loop.
    if (error.kind === 'context_overflow') return this.#compactAndRetry(attempt, error, retry);
    // A request the provider refuses (400, auth) fails the same way anywhere: no retry, no fallback.
    if (!error.retryable) return failed(error);
    const state = context.state;
    const policy = (this.#policy ??= resolveRetryPolicy(state.shared.options.retry));
    if (retry >= policy.maxRetries) {
      // This route is spent: the next attempt goes to the fallback, if any.
      this.#route++;
      this.#routeAttempts = 0;
      return undefined;
    }
    const delayMs = retryDelay(policy, retry, error);
    announceRetry(context, attempt, retry + 1, delayMs, provider);
    return sleep(delayMs, state.abort).then((waited) => (waited ? undefined : stopped(context)));
  }

  async #compactAndRetry(
    attempt: ModelAttempt,
    error: ProviderError,
    retry: number,
  ): Promise<ModelCallResult | undefined> {
    const window = this.#window;
    if (window === undefined || this.#overflowRetried)
      return failed(overflowError(error, this.#overflowRetried));
    this.#overflowRetried = true;
    const context = this.#context;
    const fitted = await fitContext(context, window, this.#request, error);
    if (!fitted.ok) return fitted.result;
    const request = fitted.request;
    this.#request = request;
    const model = this.#routeRequest.model;
    this.#routeRequest = model === request.model ? request : { ...request, model };
    announceRetry(context, attempt, retry + 1, 0, this.#provider);
    return undefined;
  }

  /** The provider of the next attempt, switching to the fallback once; undefined when every route is spent. */
  #nextRoute(): Provider | undefined {
    const route = this.#route;
    if (route === 0) return this.#provider;
    if (route > 1) return undefined;
    if (this.#routeAttempts > 0) return this.#provider;
    const agentOptions = this.#context.state.shared.options;
    const fallback = agentOptions.fallbackProvider;
    if (fallback === undefined) return undefined;
    const request = this.#request;
    const model = agentOptions.fallbackModel ?? request.model;
    this.#provider = fallback;
    this.#routeRequest = model === request.model ? request : { ...request, model };
    return fallback;
  }
}

function ignore(): void {}

/** Counts a retry and emits its event, on the failed attempt's span. */
function announceRetry(
  context: RunContext,
  attempt: ModelAttempt,
  retry: number,
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
    spanId: state.spans.text(attempt.span),
    parentSpanId: state.spans.text(attempt.parentSpan),
    attempt: retry,
    delayMs,
    error: attempt.error as ProviderError,
    provider: provider.name,
    discardedPartial: attempt.visible,
  });
}

function failed(error: AgentError): ModelCallResult {
  return { ok: false, reason: 'error', error };
}

function stopped(context: RunContext): ModelCallResult {
  const state = context.state;
  const reason = state.stopCause ?? 'aborted';
  // Reported to the orchestrator: a model call or tool call it asks for after this is refused.
  state.stopTold = true;
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
