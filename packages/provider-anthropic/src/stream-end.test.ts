import { collectEvents, finalError, finalMessage } from '@agent-core/core/testing';
import { sseEvent, textResponse } from '@agent-core/test-support';
import type { ModelRequest } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { anthropic } from './anthropic.js';
import { useAnthropicServer } from './test-support/anthropic-server.js';

// What happens on the wire after `message_stop`, the API's last event, must not cost the answer:
// a connection reset, a proxy that holds the connection open, or stray bytes.

const model = 'claude-sonnet-4-6';
const server = useAnthropicServer();

// A short stall limit, so a provider that kept reading past message_stop would end with a stall error.
const provider = () => anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, timeoutMs: 2_000 });
const ask: ModelRequest = { model, messages: [{ role: 'user', content: 'Say hello' }] };

describe('the end of a stream', () => {
  it('keeps the whole answer when the connection drops right after message_stop', async () => {
    server.reply({ type: 'drop', body: textResponse('Hello!') });
    const message = finalMessage(await collectEvents(provider().stream(ask)));
    expect(message).toMatchObject({ content: [{ type: 'text', text: 'Hello!' }], stopReason: 'end_turn' });
  });

  it('ends at message_stop when the server holds the connection open after it', async () => {
    server.reply({ type: 'hang', body: textResponse('Hello!') });
    const message = finalMessage(await collectEvents(provider().stream(ask)));
    expect(message.content).toEqual([{ type: 'text', text: 'Hello!' }]);
    // The connection was closed by the provider, not left open.
    await server.closed(server.requests.length - 1);
  });

  it('ignores an error event the server sends after message_stop', async () => {
    const late = sseEvent('error', { type: 'error', error: { type: 'api_error', message: 'late' } });
    server.reply({ type: 'sse', body: textResponse('Hello!') + late });
    const message = finalMessage(await collectEvents(provider().stream(ask)));
    expect(message.content).toEqual([{ type: 'text', text: 'Hello!' }]);
  });

  it('still reports a stream cut before message_stop as a retryable network error', async () => {
    const whole = textResponse('Hello!');
    server.reply({ type: 'drop', body: whole.slice(0, whole.indexOf('event: message_stop')) });
    const error = finalError(await collectEvents(provider().stream(ask)));
    expect(error).toMatchObject({ kind: 'network', retryable: true });
  });
});
