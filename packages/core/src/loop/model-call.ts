import { AgentError } from '../errors/agent-error.js';
import { acceptReply } from './accept-reply.js';
import type { AssistantMessage } from '../messages/messages.js';
import type { ModelCallOptions, ModelCallResult } from '../orchestrator/orchestrator.js';
import type { ModelRequest, Provider } from '../provider/provider.js';
import type { ProviderError } from '../provider/provider-error.js';
import { sleep } from './abortable.js';
import { type AttemptOwner, ModelAttempt } from './model-attempt.js';
import type { ContextWindow } from '../context/context-window.js';
import { fitContext, overflowError } from './fit-context.js';
import { type RetryPolicy, resolveRetryPolicy, retryDelay } from './retry-policy.js';
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
      return acceptReply(context, provider, attempt.message as AssistantMessage, options, attempt);
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
