import { eventTypes } from '@agent-core/test-support';
import { collectEvents, finalError, finalMessage } from '@agent-core/core/testing';
import type { ModelRequest } from '@agent-core/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openai } from '../openai.js';
import type { OpenAIOptions } from '../openai-options.js';
import {
  chatChunk,
  chatDone,
  chatText,
  fixtureEvents,
  startFakeOpenAIServer,
  useFakeOpenAIServer,
} from '../test-support/fake-openai-server.js';
import { parisWeatherCallEvents } from '../test-support/weather-call-events.js';

const server = useFakeOpenAIServer();

function provider(options: OpenAIOptions = {}) {
  return openai({ apiKey: 'sk-test', baseURL: `${server.origin}/v1`, ...options });
}

const ask: ModelRequest = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'What is 15 * 3?' }] };

describe('chat: streaming', () => {
  it('streams text and ends with the whole message', async () => {
    server.reply({ events: fixtureEvents('chat-text.chunks.txt') });
    const events = await collectEvents(provider().stream(ask));
    expect(eventTypes(events)).toEqual([...Array<string>(6).fill('text_delta'), 'usage', 'done']);
    expect(finalMessage(events)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: '15 * 3 is 45.' }],
      stopReason: 'end_turn',
      usage: { input: 24, output: 6, cacheRead: 0, cacheWrite: 0, cost: (24 * 0.15 + 6 * 0.6) / 1_000_000 },
      provider: 'openai',
      model: 'gpt-4o-mini',
    });
  });

  it('one tool call: start, argument deltas, end with parsed input', async () => {
    server.reply({ events: fixtureEvents('chat-tool-call.chunks.txt') });
    const events = await collectEvents(provider().stream(ask));
    const id = 'call_Wq3Jb0XkP8s2LmN4vR7tYh1D';
    expect(events.slice(0, 7)).toEqual(parisWeatherCallEvents(id));
    const message = finalMessage(events);
    expect(message.stopReason).toBe('tool_use');
    expect(message.content).toEqual([
      { type: 'toolCall', id, name: 'get_weather', input: { city: 'Paris' } },
    ]);
  });

  it('three parallel tool calls, in call order', async () => {
    server.reply({ events: fixtureEvents('chat-parallel-tool-calls.chunks.txt') });
    const events = await collectEvents(provider().stream(ask));
    expect(finalMessage(events).content).toEqual([
      {
        type: 'toolCall',
        id: 'call_a1B2c3D4e5F6g7H8i9J0kL1m',
        name: 'get_weather',
        input: { city: 'Paris' },
      },
      {
        type: 'toolCall',
        id: 'call_n2O3p4Q5r6S7t8U9v0W1x2Y3',
        name: 'get_weather',
        input: { city: 'Tokyo' },
      },
      { type: 'toolCall', id: 'call_z4A5b6C7d8E9f0G1h2I3j4K5', name: 'get_weather', input: { city: 'Lima' } },
    ]);
    expect(eventTypes(events).filter((type) => type === 'toolcall_start')).toHaveLength(3);
  });

  it('text before a tool call keeps its place', async () => {
    server.reply({
      events: [
        chatChunk({ role: 'assistant', content: 'Let me check.' }),
        chatChunk({
          tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
        }),
        chatChunk({}, 'tool_calls'),
        chatDone,
      ],
    });
    const message = finalMessage(await collectEvents(provider().stream(ask)));
    expect(message.content).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'toolCall', id: 'c1', name: 'f', input: {} },
    ]);
  });

  it('cached prompt tokens: input excludes them, cacheRead holds them, cost prices each once', async () => {
    server.reply({
      events: chatText('ok', 'stop', {
        prompt_tokens: 3000,
        completion_tokens: 100,
        total_tokens: 3100,
        prompt_tokens_details: { cached_tokens: 2048 },
      }),
    });
    const message = finalMessage(await collectEvents(provider().stream({ ...ask, model: 'gpt-4.1' })));
    expect(message.usage).toEqual({
      input: 952,
      output: 100,
      cacheRead: 2048,
      cacheWrite: 0,
      cost: (952 * 2 + 100 * 8 + 2048 * 0.5) / 1_000_000,
    });
  });

  it('an unknown model has usage but no cost', async () => {
    server.reply({
      events: chatText('ok', 'stop', { prompt_tokens: 5, completion_tokens: 1, total_tokens: 6 }),
    });
    const message = finalMessage(await collectEvents(provider().stream({ ...ask, model: 'llama3.1:8b' })));
    expect(message.usage).toEqual({ input: 5, output: 1, cacheRead: 0, cacheWrite: 0 });
  });

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['content_filter', 'refusal'],
    ['tool_calls', 'tool_use'],
    ['function_call', 'tool_use'],
  ])('finish_reason %s is stopReason %s', async (finishReason, stopReason) => {
    server.reply({ events: chatText('partial', finishReason) });
    expect(finalMessage(await collectEvents(provider().stream(ask))).stopReason).toBe(stopReason);
  });

  it('a tool call cut off by the output limit keeps its place with {} input and stopReason max_tokens', async () => {
    server.reply({
      events: [
        chatChunk({
          tool_calls: [{ index: 0, id: 'c1', function: { name: 'write', arguments: '{"text":"unfini' } }],
        }),
        chatChunk({}, 'length'),
        chatDone,
      ],
    });
    const message = finalMessage(await collectEvents(provider().stream(ask)));
    expect(message.stopReason).toBe('max_tokens');
    expect(message.content).toEqual([{ type: 'toolCall', id: 'c1', name: 'write', input: {} }]);
  });

  it('the legacy function_call delta becomes a tool call', async () => {
    server.reply({
      events: [
        chatChunk({ function_call: { name: 'lookup', arguments: '{"q":' } }),
        chatChunk({ function_call: { arguments: '"x"}' } }),
        chatChunk({}, 'function_call'),
        chatDone,
      ],
    });
    const message = finalMessage(await collectEvents(provider().stream(ask)));
    expect(message.content).toMatchObject([{ type: 'toolCall', name: 'lookup', input: { q: 'x' } }]);
    expect(message.stopReason).toBe('tool_use');
  });

  it('a refusal delta is kept as text with stopReason refusal', async () => {
    server.reply({
      events: [chatChunk({ refusal: "I can't help with that." }), chatChunk({}, 'content_filter'), chatDone],
    });
    const message = finalMessage(await collectEvents(provider().stream(ask)));
    expect(message.content).toEqual([{ type: 'text', text: "I can't help with that." }]);
    expect(message.stopReason).toBe('refusal');
  });
});

describe('chat: abort', () => {
  afterEach(() => {
    server.requests.length = 0;
  });

  it('mid-stream: ends promptly with done/aborted holding the text so far, drops the unfinished call, closes the connection', async () => {
    server.reply({
      events: [
        chatChunk({ role: 'assistant', content: 'Partial answer' }),
        chatChunk({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: '{"a":' } }] }),
      ],
      hang: true,
    });
    const controller = new AbortController();
    const closed = server.waitForClientClose();
    const events = [];
    for await (const event of provider().stream(ask, { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'toolcall_delta') controller.abort();
    }
    await closed;
    const message = finalMessage(events);
    expect(message.stopReason).toBe('aborted');
    expect(message.content).toEqual([{ type: 'text', text: 'Partial answer' }]);
    expect(server.clientClosed).toBeGreaterThan(0);
  });

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const events = await collectEvents(provider().stream(ask, { signal: controller.signal }));
    expect(finalMessage(events).stopReason).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });

  it('before any event arrives: done/aborted', async () => {
    server.reply({ events: [], hang: true });
    const controller = new AbortController();
    const stream = provider().stream(ask, { signal: controller.signal });
    const closed = server.waitForClientClose();
    const pending = collectEvents(stream);
    // The server holds the stream open with no events; abort once it has the request.
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    controller.abort();
    const events = await pending;
    await closed;
    expect(finalMessage(events)).toMatchObject({ stopReason: 'aborted', content: [] });
  });
});

describe('chat: faults', () => {
  it('429 with retry-after: rate_limit, retryable, retryAfterMs, not retried by the SDK', async () => {
    server.reply({
      status: 429,
      headers: { 'retry-after': '2' },
      json: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
    });
    const error = finalError(await collectEvents(provider().stream(ask)));
    expect(error).toMatchObject({ kind: 'rate_limit', retryable: true, status: 429, retryAfterMs: 2000 });
    expect(error.message).toContain('Rate limit reached');
    expect(server.requests).toHaveLength(1);
  });

  it('429 with retry-after-ms takes the milliseconds', async () => {
    server.reply({
      status: 429,
      headers: { 'retry-after-ms': '150', 'retry-after': '1' },
      json: { error: {} },
    });
    expect(finalError(await collectEvents(provider().stream(ask))).retryAfterMs).toBe(150);
  });

  it('429 insufficient_quota is not retryable', async () => {
    server.reply({
      status: 429,
      json: {
        error: {
          message: 'You exceeded your current quota',
          type: 'insufficient_quota',
          code: 'insufficient_quota',
        },
      },
    });
    const error = finalError(await collectEvents(provider().stream(ask)));
    expect(error).toMatchObject({ kind: 'rate_limit', retryable: false });
    expect(error.message).toContain('billing');
  });

  it.each([
    [500, 'server', true],
    [502, 'server', true],
    [503, 'overloaded', true],
    [401, 'auth', false],
    [403, 'auth', false],
    [400, 'invalid_request', false],
    [404, 'invalid_request', false],
  ] as const)('HTTP %i is kind %s (retryable %s), sent once', async (status, kind, retryable) => {
    server.reply({ status, json: { error: { message: `failure ${status}`, type: 'x' } } });
    const error = finalError(await collectEvents(provider().stream(ask)));
    expect(error).toMatchObject({ kind, retryable, status, provider: 'openai' });
    expect(error.message).toContain(`failure ${status}`);
    expect(server.requests).toHaveLength(1);
  });

  it('401 says how to fix the key', async () => {
    server.reply({
      status: 401,
      json: { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } },
    });
    expect(finalError(await collectEvents(provider().stream(ask))).message).toContain('OPENAI_API_KEY');
  });

  it('an error object inside the stream after HTTP 200 maps by its type', async () => {
    server.reply({
      events: [
        chatChunk({ role: 'assistant', content: 'Hel' }),
        'data: {"error":{"message":"The server is overloaded","type":"server_overloaded","code":null}}\n\n',
      ],
    });
    const events = await collectEvents(provider().stream(ask));
    expect(eventTypes(events)).toEqual(['text_delta', 'error']);
    expect(finalError(events)).toMatchObject({ kind: 'overloaded', retryable: true });
  });

  it('an in-stream error with an unknown type is a retryable server error', async () => {
    server.reply({ events: ['data: {"error":{"message":"boom"}}\n\n'] });
    expect(finalError(await collectEvents(provider().stream(ask)))).toMatchObject({
      kind: 'server',
      retryable: true,
    });
  });

  it('an in-stream invalid_request_error is not retryable', async () => {
    server.reply({
      events: [
        'data: {"error":{"message":"messages[1].content is invalid","type":"invalid_request_error","code":"invalid_value"}}\n\n',
      ],
    });
    expect(finalError(await collectEvents(provider().stream(ask)))).toMatchObject({
      kind: 'invalid_request',
      retryable: false,
    });
  });

  it('the connection dropped mid-stream: a retryable network error', async () => {
    server.reply({ events: [chatChunk({ role: 'assistant', content: 'Hel' })], drop: true });
    const events = await collectEvents(provider().stream(ask));
    expect(finalError(events)).toMatchObject({ kind: 'network', retryable: true });
  });

  it('a stream that ends without a finish_reason: a retryable network error', async () => {
    server.reply({ events: [chatChunk({ role: 'assistant', content: 'Hel' })] });
    expect(finalError(await collectEvents(provider().stream(ask)))).toMatchObject({
      kind: 'network',
      retryable: true,
    });
  });

  it('a malformed SSE chunk: a retryable malformed error', async () => {
    server.reply({ events: [chatChunk({ content: 'a' }), 'data: {"choices":[{"delta":\n\n', chatDone] });
    const error = finalError(await collectEvents(provider().stream(ask)));
    expect(error).toMatchObject({ kind: 'malformed', retryable: true });
  });

  it('a server that is not there: a network error', async () => {
    const gone = await startFakeOpenAIServer();
    const origin = gone.origin;
    await gone.close();
    const error = finalError(await collectEvents(openai({ baseURL: origin }).stream(ask)));
    expect(error).toMatchObject({ kind: 'network', retryable: true });
  });

  it('timeoutMs: a server that never answers is a network error', async () => {
    // The fake server sends headers at once; this one never answers at all.
    const silent = await import('node:http').then(({ createServer }) => createServer(() => {}));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const error = finalError(
        await collectEvents(openai({ baseURL: `http://127.0.0.1:${port}/v1`, timeoutMs: 50 }).stream(ask)),
      );
      expect(error).toMatchObject({ kind: 'network', retryable: true });
      expect(error.message).toContain('timed out');
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
