import type { AgentEventOf } from '../events/agent-event.js';
import { toAgentError } from '../errors/agent-error.js';
import type { AssistantMessage } from '../messages/messages.js';
import type { ModelCallOptions } from '../orchestrator/orchestrator.js';
import type { ModelEvent, ModelRequest, Provider } from '../provider/provider.js';
import { isProviderErrorKind, ProviderError } from '../provider/provider-error.js';
import { EventKind } from '../events/run-events.js';
import { type ModelCallWatch, watchModelCall } from './model-call-watch.js';
import { StreamedCalls } from './streamed-calls.js';
import { providerEditError, restoreView, viewChanged } from './history-view.js';
import type { RunContext } from './run-context.js';

/**
 * How one attempt at a model call ended: `done` with its answer (`message`),
 * `failed` with `error`, or `stopped` by the run with what was shown so far
 * (`message`, when anything was).
 */
export type AttemptEnd = 'done' | 'failed' | 'stopped';

/** What reads an attempt's stream and takes over once the call is cut off while it waits. */
export interface AttemptOwner {
  /**
   * Called (later, never inside the cut-off) for an attempt cut off while its
   * reader waited for the provider: the owner settles it and goes on, and the
   * reader's frame, if the provider ever answers, finds the attempt claimed and leaves.
   */
  continueAfterCutOff(attempt: ModelAttempt): void;
}

/**
 * One attempt at a model call: announces it (`message_start`), opens the
 * provider's stream under the call's watch, takes its events one by one and
 * says how it ended. The caller drives the reading loop itself and awaits the
 * provider's own promises, so a model call costs one async frame and an event
 * costs what for-await would:
 *
 *   const attempt = new ModelAttempt(...);
 *   try { for (let step = attempt.open(); step !== undefined; step = attempt.next()) {
 *     const event = await step; if (attempt.claimed) return; if (attempt.take(event)) break; }
 *   } catch (thrown) { if (attempt.claimed) return; attempt.threw(thrown); }
 *   if (!attempt.claim()) return;
 *   const end = attempt.settle(); // then attempt.message, attempt.error
 *
 * A provider that ignores its signal may never settle the promise awaited: a
 * cut-off (the run's abort, the idle watch) therefore claims the attempt and
 * hands it to its owner, which settles it in a frame of its own.
 */
export class ModelAttempt {
  /** The attempt's span and its parent (the turn's), by number (see `SpanIds`): its `message_start`, `message_end` and any `retry` carry them. */
  readonly span: number;
  readonly parentSpan: number;
  readonly #context: RunContext;
  readonly #provider: Provider;
  readonly #request: ModelRequest;
  readonly #idleMs: number;
  readonly #watch: ModelCallWatch;
  readonly #owner: AttemptOwner;
  readonly #onTextDelta: ((delta: string) => void) | undefined;
  readonly #requestedAt: number;
  #iterator: AsyncIterator<ModelEvent> | undefined;
  #ended = false;
  #visible = false;
  #claimed = false;
  #message: AssistantMessage | undefined;
  #error: ProviderError | undefined;
  /** The text shown so far: kept when an abort cuts the stream off before the provider answers it. */
  #shown: string[] | undefined;
  /** The tool calls streamed so far; made at the first tool-call event. */
  #streamed: StreamedCalls | undefined;

  constructor(
    context: RunContext,
    provider: Provider,
    request: ModelRequest,
    options: ModelCallOptions,
    attempt: number,
    owner: AttemptOwner,
  ) {
    const state = context.state;
    this.#context = context;
    this.#owner = owner;
    this.#provider = provider;
    this.#request = request;
    this.#onTextDelta = options.onTextDelta;
    this.#idleMs = state.shared.options.streamIdleTimeoutMs ?? 120_000;
    // Every attempt is announced before its request, so it has its own span from the start.
    const span = state.spans.open();
    const parent = state.turnSpan;
    this.span = span;
    this.parentSpan = parent;
    if (request.model === state.settings.model) {
      state.events.emit(
        EventKind.messageStart,
        state.turn,
        state.seq++,
        span,
        parent,
        attempt,
        provider.name,
      );
    } else {
      // Another model (a fallback's): an event object, as records name the run's model only.
      context.deliver({
        type: 'message_start',
        runId: state.runId,
        turn: state.turn,
        seq: state.seq++,
        spanId: state.spans.text(span),
        parentSpanId: state.spans.text(parent),
        provider: provider.name,
        model: request.model,
        attempt,
      });
    }
    // Only until the run's first token is timed: later attempts read no clock.
    this.#requestedAt = state.timeToFirstTokenMs === undefined ? performance.now() : 0;
    // The run's calls share one controller and one idle timer; an event costs a counter bump.
    this.#watch = watchModelCall(state, this.#idleMs);
  }

  /** Opens the provider's stream and waits for its first event; call inside the caller's `try`. */
  open(): Promise<IteratorResult<ModelEvent>> | undefined {
    // Set before the provider runs, so a cut-off from the very start reaches this attempt.
    this.#watch.wake = this;
    // The run's calls share one signal and one options object (see SharedModelWatch); the
    // signal is made when a provider first reads it. The request's messages are a read-only
    // view of the history, whose messages are frozen: nothing a provider does reaches it.
    this.#iterator = this.#provider.stream(this.#request, this.#watch.options)[Symbol.asyncIterator]();
    return this.next();
  }

  /** The provider's promise of its next event, or undefined once the call's signal has aborted. */
  next(): Promise<IteratorResult<ModelEvent>> | undefined {
    if (this.#watch.cutOff) return undefined;
    return (this.#iterator as AsyncIterator<ModelEvent>).next();
  }

  /** True once a cut-off or the reader took the attempt over (see `claim`). */
  get claimed(): boolean {
    return this.#claimed;
  }

  /** Takes the attempt over to settle it; false when a cut-off already did. */
  claim(): boolean {
    if (this.#claimed) return false;
    this.#claimed = true;
    return true;
  }

  /**
   * Called by the watch right after it aborts the call (the run's abort, the
   * idle check), so the attempt needs no abort listener of its own. The
   * reader may be waiting on a provider that never answers: the owner goes on
   * without it, once the code that cut the call off has returned.
   */
  cutOff(): void {
    if (!this.claim()) return;
    this.#watch.wake = undefined;
    this.#owner.continueAfterCutOff(this);
  }

  /** Takes one step of the stream; true when the attempt has its answer (or the stream ended) and reading stops. */
  take(step: IteratorResult<ModelEvent>): boolean {
    if (step.done === true) {
      this.#ended = true;
      return true;
    }
    const event = step.value;
    const context = this.#context;
    const state = context.state;
    this.#watch.touch();
    if (state.timeToFirstTokenMs === undefined && event.type !== 'usage' && event.type !== 'error')
      state.timeToFirstTokenMs = performance.now() - this.#requestedAt;
    switch (event.type) {
      case 'done':
        this.#message = event.message;
        return true;
      case 'error':
        this.#error = asProviderError(event.error, this.#provider);
        return true;
      case 'text_delta': {
        this.#visible = true;
        (this.#shown ??= []).push(event.delta);
        const onTextDelta = this.#onTextDelta;
        if (onTextDelta !== undefined) onTextDelta(event.delta);
        else state.events.emit(EventKind.textDelta, state.turn, state.seq++, 0, 0, 0, event.delta);
        return false;
      }
      case 'thinking_delta':
        this.#visible = true;
        state.events.emit(EventKind.thinkingDelta, state.turn, state.seq++, 0, 0, 0, event.delta);
        return false;
      case 'toolcall_start':
        (this.#streamed ??= new StreamedCalls()).start(event.id, event.name);
        return false;
      case 'toolcall_delta':
        this.#streamed?.delta(event.id, event.delta);
        return false;
      case 'toolcall_end':
        (this.#streamed ??= new StreamedCalls()).end(event.toolCall);
        return false;
      default:
        return false;
    }
  }

  /** Records what the provider (or a callback) threw while the stream was read. */
  threw(thrown: unknown): void {
    const provider = this.#provider;
    // The history's messages are frozen: a provider that edits its request in place fails on them.
    const edit =
      thrown instanceof TypeError &&
      /read[- ]only|frozen|not extensible|object is not extensible/i.test(thrown.message)
        ? ". It changed its request in place, but a request's messages are the agent's frozen history: copy what you change"
        : '';
    this.#error = ProviderError.isInstance(thrown)
      ? thrown
      : new ProviderError({
          kind: 'fatal',
          provider: provider.name,
          message: `Provider '${provider.name}' threw instead of reporting an error event: ${toAgentError(thrown).message}${edit}`,
          cause: thrown,
        });
  }

  /** The answer once `settle` said `done`; what was shown so far (if anything) once it said `stopped`. */
  get message(): AssistantMessage | undefined {
    return this.#message;
  }

  /** Why the attempt failed, once `settle` said `failed`. */
  get error(): ProviderError | undefined {
    return this.#error;
  }

  /** The tool calls the stream showed, when it showed any: `finish` keeps those the final message lacks. */
  get streamed(): StreamedCalls | undefined {
    return this.#streamed;
  }

  /** True once the stream showed text or thinking: a retry then discards what the user saw. */
  get visible(): boolean {
    return this.#visible;
  }

  /** Ends the watch, closes the stream and says how the attempt ended, with its `message_end`. */
  settle(): AttemptEnd {
    const watch = this.#watch;
    if (watch.wake === this) watch.wake = undefined;
    const idle = watch.end();
    // A stream left before its end is closed, as for-await would, so the provider can clean up;
    // without waiting, since a deaf provider may never answer.
    const iterator = this.#iterator;
    if (iterator !== undefined && !this.#ended) closeQuietly(iterator);

    const context = this.#context;
    const provider = this.#provider;
    const request = this.#request;
    let message = this.#message;
    let error = this.#error;
    if (context.state.stopCause !== undefined) {
      const partial = message ?? abortedMessage(provider, request, this.#shown);
      this.#message = partial;
      endMessage(context, partial, this.span, this.parentSpan);
      return 'stopped';
    }
    if (idle) {
      // Cut off for going silent: whatever the provider made of its abort (often a done
      // with stopReason 'aborted') is not an answer. A retryable network failure instead.
      message = undefined;
      error = new ProviderError({
        kind: 'network',
        provider: provider.name,
        message: `The model stream sent nothing for ${this.#idleMs} ms and was closed (streamIdleTimeoutMs).`,
      });
    }
    // A provider that changed its request's list in place (the run's copy of the history): the
    // history is unchanged, the copy is put back, and the call fails saying so.
    if (request.messages === context.state.view && viewChanged(context.state)) {
      restoreView(context.state);
      const edit = providerEditError(provider.name);
      message = undefined;
      error = new ProviderError({
        kind: 'fatal',
        provider: provider.name,
        message: edit.message,
        cause: edit,
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
      this.#message = undefined;
      this.#error = error;
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
        this.span,
        this.parentSpan,
        error,
      );
      return 'failed';
    }
    return 'done';
  }
}

/** Emits the `message_end` of an attempt, on its span. */
export function endMessage(
  context: RunContext,
  message: AssistantMessage,
  span: number,
  parent: number,
  error?: ProviderError,
): void {
  const state = context.state;
  if (error === undefined) {
    state.events.emit(EventKind.messageEnd, state.turn, state.seq++, span, parent, 0, message);
    return;
  }
  const event: AgentEventOf<'message_end'> = {
    type: 'message_end',
    runId: state.runId,
    turn: state.turn,
    seq: state.seq++,
    spanId: state.spans.text(span),
    parentSpanId: state.spans.text(parent),
    message,
    error,
  };
  context.deliver(event);
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
