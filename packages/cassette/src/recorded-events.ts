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
  // JSON drops what JSON cannot hold (undefined fields), as the file will.
  return redactSecrets(JSON.parse(JSON.stringify(event)) as CassetteEvent, redact);
}

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
  const copies = JSON.parse(JSON.stringify(reply)) as CassetteEvent[];
  let text = '';
  for (const event of copies) {
    if (options.signal?.aborted === true) {
      const partial: AssistantMessage = {
        role: 'assistant',
        content: text === '' ? [] : [{ type: 'text', text }],
        stopReason: 'aborted',
        provider,
      };
      yield { type: 'done', message: partial };
      return;
    }
    if (event.type === 'text_delta') text += event.delta;
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
