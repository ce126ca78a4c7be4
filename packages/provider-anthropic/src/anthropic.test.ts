import { collectEvents, finalError, finalMessage } from '@agent-core/core/testing';
import {
  messageEnd,
  messageStart,
  sseEvent,
  textBlock,
  textResponse,
  toolUseBlock,
} from '@agent-core/test-support';
import type { AssistantMessage, Message, ModelEvent, ModelRequest } from '@agent-core/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { anthropic } from './anthropic.js';
import { fixture, useAnthropicServer } from './test-support/anthropic-server.js';

const model = 'claude-sonnet-4-6';
const server = useAnthropicServer();
afterEach(() => {
  vi.unstubAllEnvs();
});

function provider(options: Parameters<typeof anthropic>[0] = {}) {
  return anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, ...options });
}

function ask(text: string, extra: Partial<ModelRequest> = {}): ModelRequest {
  return { model, messages: [{ role: 'user', content: text }], ...extra };
}

function lastRequest() {
  return server.requests[server.requests.length - 1]!;
}

function eventTypes(events: readonly ModelEvent[]): string[] {
  return events.map((event) => event.type);
}

describe('streaming a text answer', () => {
  it('emits text deltas, usage and a done message with the whole text', async () => {
    server.reply({ type: 'sse', body: fixture('text') });
    const events = await collectEvents(provider().stream(ask('Say hello')));

    expect(eventTypes(events)).toEqual(['usage', 'text_delta', 'text_delta', 'text_delta', 'usage', 'done']);
    const message = finalMessage(events);
    expect(message).toMatchObject({
      role: 'assistant',
      content: [{ type: 'text', text: 'Hello, world!' }],
      stopReason: 'end_turn',
      provider: 'anthropic',
      model,
    });
    expect(message.usage).toEqual({
      input: 25,
      output: 15,
      cacheRead: 0,
      cacheWrite: 0,
      cost: (25 * 3 + 15 * 15) / 1_000_000,
    });
  });

  it('sends the request through the SDK as a stream, with the key and the version header', async () => {
    server.reply({ type: 'sse', body: fixture('text') });
    await collectEvents(provider({ headers: { 'x-custom': 'yes' } }).stream(ask('Hi')));
    const request = lastRequest();
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/messages');
    expect(request.headers['x-api-key']).toBe('sk-ant-test');
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.headers['x-custom']).toBe('yes');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({
      model,
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });

  it('survives SSE lines split across network chunks at any byte', async () => {
    const body = fixture('tool-call');
    const pieces: string[] = [];
    for (let offset = 0; offset < body.length; offset += 7) pieces.push(body.slice(offset, offset + 7));
    server.reply({ type: 'sse', body: pieces });
    const message = finalMessage(await collectEvents(provider().stream(ask('Weather?'))));
    expect(message.content[1]).toEqual({
      type: 'toolCall',
      id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
      name: 'get_weather',
      input: { location: 'San Francisco, CA', unit: 'fahrenheit' },
    });
  });
});

describe('tool calls', () => {
  it('streams one tool call: start, argument deltas, end with the parsed input', async () => {
    server.reply({ type: 'sse', body: fixture('tool-call') });
    const events = await collectEvents(provider().stream(ask('Weather in SF?')));

    const toolEvents = events.filter((event) => event.type.startsWith('toolcall_'));
    expect(toolEvents).toEqual([
      { type: 'toolcall_start', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather' },
      { type: 'toolcall_delta', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', delta: '{"location":' },
      { type: 'toolcall_delta', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', delta: ' "San Fra' },
      { type: 'toolcall_delta', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', delta: 'ncisco, CA"' },
      { type: 'toolcall_delta', id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', delta: ', "unit": "fahrenheit"}' },
      {
        type: 'toolcall_end',
        toolCall: {
          type: 'toolCall',
          id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6',
          name: 'get_weather',
          input: { location: 'San Francisco, CA', unit: 'fahrenheit' },
        },
      },
    ]);
    const message = finalMessage(events);
    expect(message.stopReason).toBe('tool_use');
    expect(message.content.map((block) => block.type)).toEqual(['text', 'toolCall']);
  });

  it('streams three tool calls in one message, in order; a call with no argument deltas gets {}', async () => {
    server.reply({ type: 'sse', body: fixture('three-tool-calls') });
    const events = await collectEvents(provider().stream(ask('Compute')));
    const ends = events.flatMap((event) => (event.type === 'toolcall_end' ? [event.toolCall] : []));
    expect(ends).toEqual([
      { type: 'toolCall', id: 'toolu_01A', name: 'add', input: { a: 1, b: 2 } },
      { type: 'toolCall', id: 'toolu_01B', name: 'multiply', input: { a: 3, b: 4 } },
      { type: 'toolCall', id: 'toolu_01C', name: 'now', input: {} },
    ]);
    expect(finalMessage(events).content).toEqual(ends);
  });

  it('assembles arguments split inside \\u escapes, after a backslash and inside a surrogate pair', async () => {
    server.reply({ type: 'sse', body: fixture('escapes') });
    const events = await collectEvents(provider().stream(ask('Note')));
    const message = finalMessage(events);
    expect(message.content).toEqual([
      {
        type: 'toolCall',
        id: 'toolu_01Esc',
        name: 'write_note',
        input: { text: 'café "q" \\ / \n 😀 tab\t', path: 'C:\\dir\\file' },
      },
    ]);
    // Every delta was passed on as it came, none parsed mid-stream.
    const deltas = events.flatMap((event) => (event.type === 'toolcall_delta' ? [event.delta] : []));
    expect(deltas).toHaveLength(6);
    expect(deltas[0]).toBe('{"text": "caf\\u00');
  });

  it('ends with a malformed error naming the tool when the final arguments are not JSON', async () => {
    server.reply({
      type: 'sse',
      body:
        messageStart() +
        toolUseBlock(0, 'toolu_bad', 'read_file', ['{"path": "a.txt"']) +
        messageEnd('tool_use'),
    });
    const events = await collectEvents(provider().stream(ask('Read')));
    const error = finalError(events);
    expect(error.kind).toBe('malformed');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('read_file');
    expect(error.message).toContain('toolu_bad');
    expect(events.some((event) => event.type === 'toolcall_end')).toBe(false);
  });

  it('a call cut by the output limit (block stop before the max_tokens stop reason) ends done with {} input', async () => {
    server.reply({ type: 'sse', body: fixture('tool-call-cut-by-max-tokens') });
    const events = await collectEvents(provider().stream(ask('Write the file')));

    expect(events.some((event) => event.type === 'error')).toBe(false);
    const message = finalMessage(events);
    expect(message.stopReason).toBe('max_tokens');
    expect(message.content).toEqual([
      { type: 'text', text: 'I will write the file.' },
      { type: 'toolCall', id: 'toolu_01CutByTheLimit000000001', name: 'write_file', input: {} },
    ]);
    // The end of the call is announced once the stop reason is known, before done.
    expect(eventTypes(events).slice(-3)).toEqual(['toolcall_end', 'usage', 'done']);
  });

  it('an unparsable call followed by another block is malformed even when the stop reason is max_tokens', async () => {
    server.reply({
      type: 'sse',
      body:
        messageStart() +
        toolUseBlock(0, 'toolu_first', 'read_file', ['{"path": ']) +
        textBlock(1, ['More']) +
        messageEnd('max_tokens'),
    });
    const events = await collectEvents(provider().stream(ask('Read')));
    const error = finalError(events);
    expect(error.kind).toBe('malformed');
    expect(error.message).toContain('toolu_first');
    expect(events.some((event) => event.type === 'done')).toBe(false);
  });

  it('an unparsable call in a stream that ends without a stop reason is malformed', async () => {
    server.reply({
      type: 'sse',
      body:
        messageStart() +
        toolUseBlock(0, 'toolu_open', 'read_file', ['{']) +
        sseEvent('message_stop', { type: 'message_stop' }),
    });
    const error = finalError(await collectEvents(provider().stream(ask('Read'))));
    expect(error.kind).toBe('malformed');
    expect(error.message).toContain('toolu_open');
  });
});

describe('thinking', () => {
  const thinkingHistory = async (): Promise<AssistantMessage> => {
    server.reply({ type: 'sse', body: fixture('thinking') });
    const events = await collectEvents(provider({ thinking: { budgetTokens: 2048 } }).stream(ask('15 * 3?')));
    expect(events.filter((event) => event.type === 'thinking_delta')).toEqual([
      { type: 'thinking_delta', delta: 'The user wants 15 * 3.' },
      { type: 'thinking_delta', delta: ' That is 45.' },
    ]);
    return finalMessage(events);
  };

  it('keeps the signature and redacted thinking in the message', async () => {
    const message = await thinkingHistory();
    expect(message.content).toEqual([
      {
        type: 'thinking',
        thinking: 'The user wants 15 * 3. That is 45.',
        signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds',
      },
      {
        type: 'thinking',
        thinking: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP',
        redacted: true,
      },
      { type: 'text', text: '15 * 3 = 45' },
    ]);
    expect(lastRequest().body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it('replays thinking exactly to the same model on the next request', async () => {
    const answer = await thinkingHistory();
    server.reply({ type: 'sse', body: textResponse('ok') });
    const history: Message[] = [
      { role: 'user', content: '15 * 3?' },
      answer,
      { role: 'user', content: 'And 16 * 3?' },
    ];
    await collectEvents(provider({ thinking: { budgetTokens: 2048 } }).stream({ model, messages: history }));
    expect(lastRequest().body.messages[1]).toEqual({
      role: 'assistant',
      content: [
        {
          type: 'thinking',
          thinking: 'The user wants 15 * 3. That is 45.',
          signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds',
        },
        {
          type: 'redacted_thinking',
          data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP',
        },
        { type: 'text', text: '15 * 3 = 45' },
      ],
    });
  });

  it("drops another provider's or another model's thinking, keeping the text", async () => {
    const fromOpenAI: AssistantMessage = {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'reasoning from elsewhere', signature: 'opaque' },
        { type: 'text', text: '45' },
      ],
      stopReason: 'end_turn',
      provider: 'openai',
      model,
    };
    const fromOtherModel: AssistantMessage = {
      ...fromOpenAI,
      provider: 'anthropic',
      model: 'claude-opus-4-6',
    };
    for (const previous of [fromOpenAI, fromOtherModel]) {
      server.reply({ type: 'sse', body: textResponse('ok') });
      const history: Message[] = [
        { role: 'user', content: '15 * 3?' },
        previous,
        { role: 'user', content: 'Sure?' },
      ];
      await collectEvents(provider().stream({ model, messages: history }));
      expect(lastRequest().body.messages[1]).toEqual({
        role: 'assistant',
        content: [{ type: 'text', text: '45' }],
      });
    }
  });
});

describe('usage and cost', () => {
  it('combines message_start and message_delta usage without double counting, cache tokens included', async () => {
    server.reply({ type: 'sse', body: fixture('cache-usage') });
    const events = await collectEvents(provider().stream(ask('Again')));
    const usages = events.flatMap((event) => (event.type === 'usage' ? [event.usage] : []));
    expect(usages.map((usage) => usage.output)).toEqual([1, 503]);
    const expected = { input: 21, output: 503, cacheRead: 8000, cacheWrite: 1200 };
    expect(finalMessage(events).usage).toEqual({
      ...expected,
      cost: (21 * 3 + 503 * 15 + 8000 * 0.3 + 1200 * 3.75) / 1_000_000,
    });
  });

  it('leaves cost undefined for an unknown model and never reports NaN', async () => {
    server.reply({
      type: 'sse',
      body:
        messageStart('my-proxy-model', {
          input_tokens: 7,
          output_tokens: 1,
          cache_creation_input_tokens: null,
          cache_read_input_tokens: null,
        }) +
        textBlock(0, ['hi']) +
        messageEnd('end_turn', 3),
    });
    const message = finalMessage(
      await collectEvents(provider().stream({ ...ask('x'), model: 'my-proxy-model' })),
    );
    expect(message.usage).toEqual({ input: 7, output: 3, cacheRead: 0, cacheWrite: 0 });
  });
});

describe('stop reasons', () => {
  const cases: [string | null, string][] = [
    ['end_turn', 'end_turn'],
    ['tool_use', 'tool_use'],
    ['max_tokens', 'max_tokens'],
    ['stop_sequence', 'stop_sequence'],
    ['refusal', 'refusal'],
    ['pause_turn', 'end_turn'],
    ['model_context_window_exceeded', 'max_tokens'],
    ['a_reason_from_the_future', 'end_turn'],
    [null, 'end_turn'],
  ];
  it.each(cases)('maps %s to %s', async (wire, expected) => {
    server.reply({ type: 'sse', body: messageStart() + textBlock(0, ['x']) + messageEnd(wire) });
    const message = finalMessage(await collectEvents(provider().stream(ask('x'))));
    expect(message.stopReason).toBe(expected);
  });
});

describe('images', () => {
  it('sends an image prompt as a base64 image block', async () => {
    server.reply({ type: 'sse', body: textResponse('A red pixel.') });
    const data =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
    await collectEvents(
      provider().stream({
        model,
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image', data, mimeType: 'image/png' },
            ],
          },
        ],
      }),
    );
    expect(lastRequest().body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data } },
        ],
      },
    ]);
  });
});

describe('the API key', () => {
  it('is read from ANTHROPIC_API_KEY when a request is made, not when the provider is built', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    const lazy = anthropic({ baseURL: server.url });
    const missing = finalError(await collectEvents(lazy.stream(ask('x'))));
    expect(missing.kind).toBe('auth');
    expect(missing.retryable).toBe(false);
    expect(missing.message).toContain('ANTHROPIC_API_KEY');
    expect(missing.message).toContain('apiKey');

    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-from-env');
    server.reply({ type: 'sse', body: textResponse('ok') });
    finalMessage(await collectEvents(lazy.stream(ask('x'))));
    expect(lastRequest().headers['x-api-key']).toBe('sk-ant-from-env');

    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-rotated');
    server.reply({ type: 'sse', body: textResponse('ok') });
    finalMessage(await collectEvents(lazy.stream(ask('x'))));
    expect(lastRequest().headers['x-api-key']).toBe('sk-ant-rotated');
  });

  it('prefers the apiKey option over the environment', async () => {
    vi.stubEnv('ANTHROPIC_API_KEY', 'sk-ant-from-env');
    server.reply({ type: 'sse', body: textResponse('ok') });
    await collectEvents(provider({ apiKey: 'sk-ant-option' }).stream(ask('x')));
    expect(lastRequest().headers['x-api-key']).toBe('sk-ant-option');
  });
});

describe('countTokens and modelInfo', () => {
  it('counts tokens through the token counting endpoint', async () => {
    server.countTokensReply(1234);
    const count = await provider().countTokens(ask('How many tokens?', { system: 'Be brief.' }));
    expect(count).toBe(1234);
    expect(lastRequest().path).toBe('/v1/messages/count_tokens');
    expect(lastRequest().body).toEqual({
      model,
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'How many tokens?' }] }],
    });
  });

  it('answers modelInfo from the model table', () => {
    expect(provider().modelInfo('claude-haiku-4-5-20251001')).toEqual({
      contextWindow: 200_000,
      maxOutputTokens: 64_000,
      pricing: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
    });
  });
});
