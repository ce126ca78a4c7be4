import { type ModelEvent, type ModelRequest, ProviderError } from '@agent-core/core';
import type Anthropic from '@anthropic-ai/sdk';
import type {
  MessageCreateParamsStreaming,
  RawMessageStreamEvent,
} from '@anthropic-ai/sdk/resources/messages';
import type { AnthropicSdk } from './load-sdk.js';
import { anthropicModelInfo } from './model-info.js';
import type { ProviderNames } from './provider-label.js';
import { StreamAssembler } from './stream-assembler.js';
import { type RequestSettings, toAnthropicRequest } from './to-anthropic-request.js';
import { toProviderError } from './to-provider-error.js';

/** What one streamed call needs from the provider. */
export interface StreamContext {
  settings: RequestSettings;
  timeoutMs: number;
  /** The provider's name (`message.provider`, `error.provider`). */
  provider: string;
  /**
   * Returns the SDK, a client for the current API key and who it talks to (for messages),
   * or a ProviderError when there is no key.
   */
  client(): Promise<{ sdk: AnthropicSdk; client: Anthropic; names: ProviderNames } | ProviderError>;
}

function errorEvent(error: ProviderError): ModelEvent {
  return { type: 'error', error };
}

/**
 * Streams one Messages API call as model events.
 *
 * Contract:
 * - Never throws: every failure ends the stream with one `error` event.
 * - On abort (before or during the call) it ends at once with `done`, stop
 *   reason `aborted`, holding the blocks finished so far.
 * - `timeoutMs` bounds the wait for the response and then for each next
 *   event; a stalled stream ends with a retryable `network` error.
 */
export async function* streamAnthropic(
  context: StreamContext,
  request: ModelRequest,
  signal: AbortSignal | undefined,
): AsyncGenerator<ModelEvent, void, undefined> {
  const pricing = anthropicModelInfo(request.model)?.pricing;
  // A function, not a narrowed property: the signal changes while we await.
  const aborted = (): boolean => signal?.aborted === true;
  if (aborted()) {
    const names = { provider: context.provider, label: context.provider };
    yield { type: 'done', message: new StreamAssembler(request.model, pricing, names).abortedMessage() };
    return;
  }

  let client: Anthropic;
  let sdk: AnthropicSdk;
  let names: ProviderNames;
  let body: MessageCreateParamsStreaming;
  try {
    const resolved = await context.client();
    if (resolved instanceof ProviderError) {
      yield errorEvent(resolved);
      return;
    }
    ({ client, sdk, names } = resolved);
    body = toAnthropicRequest(request, context.settings);
  } catch (error) {
    yield errorEvent(
      new ProviderError({
        kind: 'fatal',
        message: `Could not prepare the request for ${context.provider}: ${error instanceof Error ? error.message : String(error)}`,
        provider: context.provider,
        cause: error,
      }),
    );
    return;
  }
  const assembler = new StreamAssembler(request.model, pricing, names);

  // The SDK may have been loading while the caller aborted.
  if (aborted()) {
    yield { type: 'done', message: assembler.abortedMessage() };
    return;
  }

  // Our own controller, linked to the caller's signal, so the idle timer can
  // stop the request too; the listener is removed when the call ends.
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let stalled = false;
  const armIdleTimer = (): void => {
    idleTimer = setTimeout(() => {
      stalled = true;
      controller.abort();
    }, context.timeoutMs);
  };
  const stalledError = (): ModelEvent =>
    errorEvent(
      new ProviderError({
        kind: 'network',
        message: `The stream from ${names.label} sent nothing for ${context.timeoutMs} ms and was stopped.`,
        provider: names.provider,
      }),
    );

  try {
    let stream: AsyncIterable<RawMessageStreamEvent>;
    try {
      stream = await client.messages.create(body, { signal: controller.signal, timeout: context.timeoutMs });
    } catch (error) {
      if (aborted()) yield { type: 'done', message: assembler.abortedMessage() };
      else yield errorEvent(toProviderError(error, sdk, names));
      return;
    }

    try {
      // The timer runs only while waiting for the next event, never while a
      // slow consumer holds an event we yielded.
      armIdleTimer();
      for await (const event of stream) {
        clearTimeout(idleTimer);
        if (aborted()) break;
        const result = assembler.accept(event);
        for (const modelEvent of result.events) yield modelEvent;
        if (result.error !== undefined) {
          yield errorEvent(result.error);
          return;
        }
        if (aborted()) break;
        // message_stop is the API's last event: whatever the connection does after it (a reset,
        // a proxy holding it open, stray bytes) must not cost the answer. Leaving the loop closes it.
        if (assembler.complete) break;
        armIdleTimer();
      }
    } catch (error) {
      if (aborted()) yield { type: 'done', message: assembler.abortedMessage() };
      else if (stalled) yield stalledError();
      else yield errorEvent(toProviderError(error, sdk, names));
      return;
    }

    // The SDK ends its iteration quietly when the request is aborted.
    if (aborted()) yield { type: 'done', message: assembler.abortedMessage() };
    else if (stalled) yield stalledError();
    else if (!assembler.complete) {
      yield errorEvent(
        new ProviderError({
          kind: 'network',
          message: `The stream from ${names.label} ended before message_stop: the connection closed early.`,
          provider: names.provider,
        }),
      );
    } else yield { type: 'done', message: assembler.message() };
  } finally {
    clearTimeout(idleTimer);
    signal?.removeEventListener('abort', onAbort);
    // Stops reading when the consumer left early; a no-op after a whole stream.
    controller.abort();
  }
}
