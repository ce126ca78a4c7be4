import {
  type AssistantMessage,
  type ModelEvent,
  ProviderError,
  type RedactOptions,
  redactSecrets,
  type StreamOptions,
} from '@agent-core/core';
import type { CassetteEvent } from './cassette-data.js';

/**
 * A model event as a cassette keeps it: a plain-JSON copy with every string
 * passed through `redactSecrets`, a `ProviderError` as its kind, message,
 * status and retry fields.
 */
export function toCassetteEvent(event: ModelEvent, redact: RedactOptions): CassetteEvent {
  if (event.type === 'error') {
    const error = event.error;
    const recorded: Extract<CassetteEvent, { type: 'error' }>['error'] = {
      kind: error.kind,
      message: redactSecrets(error.message, redact),
      retryable: error.retryable,
    };
    if (error.status !== undefined) recorded.status = error.status;
    if (error.retryAfterMs !== undefined) recorded.retryAfterMs = error.retryAfterMs;
    return { type: 'error', error: recorded };
  }
  // A copy: redactSecrets copies every plain object and array it walks.
  return redactSecrets(event as CassetteEvent, redact);
}

/** Each recorded reply as JSON, made on its first replay: a copy per replay is then one parse. */
const replyTexts = new WeakMap<readonly CassetteEvent[], string>();

/**
 * Streams a recorded reply as the provider did, each event a fresh copy (a
 * consumer may keep or change what it gets). An aborted signal ends it at
 * once with `done` (stopReason `aborted`) holding the text streamed so far,
 * as the provider contract asks.
 */
export async function* replayEvents(
  reply: readonly CassetteEvent[],
  options: StreamOptions,
  provider: string,
): AsyncGenerator<ModelEvent> {
  let text = replyTexts.get(reply);
  if (text === undefined) {
    text = JSON.stringify(reply);
    replyTexts.set(reply, text);
  }
  const copies = JSON.parse(text) as CassetteEvent[];
  let streamed = '';
  for (const event of copies) {
    if (options.signal?.aborted === true) {
      const partial: AssistantMessage = {
        role: 'assistant',
        content: streamed === '' ? [] : [{ type: 'text', text: streamed }],
        stopReason: 'aborted',
        provider,
      };
      yield { type: 'done', message: partial };
      return;
    }
    if (event.type === 'text_delta') streamed += event.delta;
    if (event.type === 'error') {
      const { kind, message, retryable, status, retryAfterMs } = event.error;
      yield {
        type: 'error',
        error: new ProviderError({
          kind,
          message,
          retryable,
          provider,
          ...(status === undefined ? {} : { status }),
          ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
        }),
      };
      return;
    }
    yield event;
  }
}
