import { collectEvents, finalError, finalMessage } from '@agent-core/core/testing';
import {
  messageStart,
  textBlock,
  textBlockEvents,
  toolUseBlock,
  toolUseBlockEvents,
} from '@agent-core/test-support';
import { createServer } from 'node:net';
import type { ModelEvent, ModelRequest } from '@agent-core/core';
import { describe, expect, it, vi } from 'vitest';
import { anthropic } from './anthropic.js';
import { errorBody, fixture, useAnthropicServer } from './test-support/anthropic-server.js';

const model = 'claude-sonnet-4-6';
const request: ModelRequest = { model, messages: [{ role: 'user', content: 'Hello' }] };
const server = useAnthropicServer({ quietSdk: true });

function provider(options: Parameters<typeof anthropic>[0] = {}) {
  return anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, ...options });
}

describe('HTTP errors', () => {
  const cases: {
    status: number;
    type: string;
    headers?: Record<string, string>;
    kind: string;
    retryable: boolean;
    retryAfterMs?: number;
  }[] = [
    {
      status: 429,
      type: 'rate_limit_error',
      headers: { 'retry-after': '7' },
      kind: 'rate_limit',
      retryable: true,
      retryAfterMs: 7000,
    },
    {
      status: 429,
      type: 'rate_limit_error',
      headers: { 'retry-after-ms': '1500', 'retry-after': '2' },
      kind: 'rate_limit',
      retryable: true,
      retryAfterMs: 1500,
    },
    { status: 500, type: 'api_error', kind: 'server', retryable: true },
    { status: 529, type: 'overloaded_error', kind: 'overloaded', retryable: true },
    { status: 503, type: 'overloaded_error', kind: 'overloaded', retryable: true },
    { status: 401, type: 'authentication_error', kind: 'auth', retryable: false },
    { status: 403, type: 'permission_error', kind: 'auth', retryable: false },
    { status: 400, type: 'invalid_request_error', kind: 'invalid_request', retryable: false },
  ];

  it.each(cases)('$status $type becomes a $kind error', async (testCase) => {
    const before = server.requests.length;
    server.reply({
      type: 'json',
      status: testCase.status,
      body: errorBody(testCase.type, `message for ${testCase.status}`),
      ...(testCase.headers === undefined ? {} : { headers: testCase.headers }),
    });
    const error = finalError(await collectEvents(provider().stream(request)));
    expect(error.kind).toBe(testCase.kind);
    expect(error.retryable).toBe(testCase.retryable);
    expect(error.status).toBe(testCase.status);
    expect(error.provider).toBe('anthropic');
    expect(error.retryAfterMs).toBe(testCase.retryAfterMs);
    expect(error.message).toContain(`message for ${testCase.status}`);
    expect(error.message).toContain(testCase.type);
    // The SDK's own retries are off: core is the one layer that retries.
    expect(server.requests.length - before).toBe(1);
  });

  it('400 "prompt is too long" becomes a context_overflow error, not retried', async () => {
    const before = server.requests.length;
    // Anthropic's recorded body for a prompt over the model's context window.
    server.reply({
      type: 'json',
      status: 400,
      body: errorBody('invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum'),
    });
    const error = finalError(await collectEvents(provider().stream(request)));
    expect(error).toMatchObject({
      kind: 'context_overflow',
      retryable: false,
      status: 400,
      provider: 'anthropic',
    });
    expect(error.message).toContain('prompt is too long: 208310 tokens > 200000 maximum');
    expect(error.message).toContain('contextWindow');
    expect(server.requests.length - before).toBe(1);
  });

  it('another 400 invalid_request_error stays invalid_request', async () => {
    server.reply({
      type: 'json',
      status: 400,
      body: errorBody('invalid_request_error', 'messages.1.content: Field required'),
    });
    expect(finalError(await collectEvents(provider().stream(request))).kind).toBe('invalid_request');
  });

  it('tells the user what to do about an auth error', async () => {
    server.reply({ type: 'json', status: 401, body: errorBody('authentication_error', 'invalid x-api-key') });
    const error = finalError(await collectEvents(provider().stream(request)));
    expect(error.message).toContain('ANTHROPIC_API_KEY');
  });

  it('reports a refused connection as a network error', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const events = await collectEvents(
      anthropic({ apiKey: 'k', baseURL: `http://127.0.0.1:${closedPort}` }).stream(request),
    );
    const error = finalError(events);
    expect(error.kind).toBe('network');
    expect(error.retryable).toBe(true);
  });
});

describe('failures mid-stream', () => {
  it('turns an error event after HTTP 200 into a retryable overloaded error', async () => {
    server.reply({ type: 'sse', body: fixture('error-after-200') });
    const events = await collectEvents(provider().stream(request));
    const error = finalError(events);
    expect(error.kind).toBe('overloaded');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('Overloaded');
    expect(events.some((event) => event.type === 'done')).toBe(false);
  });

  it('reports a connection dropped mid-stream as a network error', async () => {
    server.reply({
      type: 'drop',
      body: messageStart() + textBlock(0, ['partial']).split('event: content_block_stop')[0]!,
    });
    const events = await collectEvents(provider().stream(request));
    expect(events.filter((event) => event.type === 'text_delta')).toEqual([
      { type: 'text_delta', delta: 'partial' },
    ]);
    const error = finalError(events);
    expect(error.kind).toBe('network');
    expect(error.retryable).toBe(true);
  });

  it('reports a stream that ends cleanly but before message_stop as a network error', async () => {
    server.reply({ type: 'sse', body: messageStart() + textBlock(0, ['cut']) });
    const error = finalError(await collectEvents(provider().stream(request)));
    expect(error.kind).toBe('network');
    expect(error.message).toContain('message_stop');
  });

  it('reports unparsable SSE data as a malformed error', async () => {
    server.reply({ type: 'sse', body: fixture('malformed') });
    const error = finalError(await collectEvents(provider().stream(request)));
    expect(error.kind).toBe('malformed');
    expect(error.retryable).toBe(true);
  });

  it('stops a stream that goes silent after timeoutMs with a retryable network error', async () => {
    server.reply({ type: 'hang', body: messageStart() });
    const index = server.requests.length;
    const error = finalError(await collectEvents(provider({ timeoutMs: 200 }).stream(request)));
    expect(error.kind).toBe('network');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('200 ms');
    await server.closed(index);
  });
});

describe('abort', () => {
  it('ends promptly with stopReason aborted, keeping finished blocks and dropping a half tool call', async () => {
    const body =
      messageStart() +
      textBlock(0, ['Checking.']) +
      toolUseBlock(1, 'toolu_done', 'lookup', ['{"q": "a"}']) +
      toolUseBlockEvents(2, 'toolu_half', 'lookup', ['{"q": "b']).slice(0, -1).join('');
    server.reply({ type: 'hang', body });
    const index = server.requests.length;
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    for await (const event of provider().stream(request, { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'toolcall_delta' && event.id === 'toolu_half') controller.abort();
    }
    const message = finalMessage(events);
    expect(message.stopReason).toBe('aborted');
    expect(message.content).toEqual([
      { type: 'text', text: 'Checking.' },
      { type: 'toolCall', id: 'toolu_done', name: 'lookup', input: { q: 'a' } },
    ]);
    // The server sees the connection closed: the request really stopped.
    await server.closed(index);
  });

  it('keeps the text streamed so far when aborted inside a text block', async () => {
    server.reply({
      type: 'hang',
      body: messageStart() + textBlockEvents(0, ['Hel']).slice(0, -1).join(''),
    });
    const controller = new AbortController();
    const events: ModelEvent[] = [];
    for await (const event of provider().stream(request, { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text_delta') controller.abort();
    }
    expect(finalMessage(events)).toMatchObject({
      stopReason: 'aborted',
      content: [{ type: 'text', text: 'Hel' }],
    });
  });

  it('aborts while waiting for the response', async () => {
    server.reply({ type: 'hang', body: '' });
    const index = server.requests.length;
    const controller = new AbortController();
    const stream = provider().stream(request, { signal: controller.signal });
    const pending = collectEvents(stream);
    while (server.requests.length <= index) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const events = await pending;
    expect(events).toHaveLength(1);
    expect(finalMessage(events)).toMatchObject({ stopReason: 'aborted', content: [] });
    await server.closed(index);
  });

  it('makes no request when the signal is already aborted', async () => {
    const before = server.requests.length;
    const events = await collectEvents(provider().stream(request, { signal: AbortSignal.abort() }));
    expect(finalMessage(events).stopReason).toBe('aborted');
    expect(server.requests.length).toBe(before);
  });

  it('leaves no abort listener behind on a long-lived signal', async () => {
    const controller = new AbortController();
    const added = vi.spyOn(controller.signal, 'addEventListener');
    const removed = vi.spyOn(controller.signal, 'removeEventListener');
    for (let call = 0; call < 12; call++) {
      server.reply({ type: 'sse', body: fixture('text') });
      finalMessage(await collectEvents(provider().stream(request, { signal: controller.signal })));
    }
    expect(added.mock.calls.length).toBe(12);
    expect(removed.mock.calls.length).toBe(12);
  });
});
