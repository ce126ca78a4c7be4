import { eventTypes } from '@agent-core/test-support';
import { collectEvents, finalError, finalMessage } from '@agent-core/core/testing';
import type { ModelRequest } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { openai } from '../openai.js';
import type { OpenAIOptions } from '../openai-options.js';
import { fixtureEvents, responsesEvent, useFakeOpenAIServer } from '../test-support/fake-openai-server.js';
import { decodeReasoningSignature } from './reasoning-signature.js';
import { parisWeatherCallEvents } from '../test-support/weather-call-events.js';

const server = useFakeOpenAIServer();

function provider(options: OpenAIOptions = {}) {
  return openai({ apiKey: 'sk-test', baseURL: `${server.origin}/v1`, api: 'responses', ...options });
}

const ask: ModelRequest = { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'What is 15 * 3?' }] };

function completed(usage: Record<string, unknown> | null = null, status = 'completed', extra = {}) {
  return responsesEvent({
    type: `response.${status}`,
    response: { id: 'resp_1', object: 'response', status, output: [], usage, ...extra },
  });
}

function textEvents(text: string): string[] {
  return [
    responsesEvent({
      type: 'response.output_item.added',
      output_index: 0,
      item: { id: 'msg_1', type: 'message', role: 'assistant', content: [] },
    }),
    responsesEvent({
      type: 'response.output_text.delta',
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta: text,
    }),
  ];
}

describe('responses: streaming', () => {
  it('streams text and reports usage with cached tokens and cost', async () => {
    server.reply({ events: fixtureEvents('responses-text.events.txt') });
    const events = await collectEvents(provider().stream(ask));
    expect(eventTypes(events)).toEqual([...Array<string>(6).fill('text_delta'), 'usage', 'done']);
    expect(server.requests[0]!.path).toBe('/v1/responses');
    expect(finalMessage(events)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: '15 * 3 is 45.' }],
      stopReason: 'end_turn',
      usage: {
        input: 1024,
        output: 6,
        cacheRead: 1024,
        cacheWrite: 0,
        cost: (1024 * 0.4 + 6 * 1.6 + 1024 * 0.1) / 1_000_000,
      },
      provider: 'openai',
      model: 'gpt-4.1-mini',
    });
  });

  it('one function call: start with call_id, argument deltas, end with parsed input', async () => {
    server.reply({ events: fixtureEvents('responses-tool-call.events.txt') });
    const events = await collectEvents(provider().stream(ask));
    const id = 'call_9XkQ2mWv7LpR3sTn5YbJ0cHd';
    expect(events.slice(0, 7)).toEqual(parisWeatherCallEvents(id));
    expect(events.filter((event) => event.type === 'toolcall_end')).toHaveLength(1);
    expect(finalMessage(events).stopReason).toBe('tool_use');
  });

  it('three parallel function calls, in order', async () => {
    server.reply({ events: fixtureEvents('responses-parallel-tool-calls.events.txt') });
    const message = finalMessage(await collectEvents(provider().stream(ask)));
    expect(message.content).toEqual([
      { type: 'toolCall', id: 'call_P1', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'toolCall', id: 'call_T2', name: 'get_weather', input: { city: 'Tokyo' } },
      { type: 'toolCall', id: 'call_L3', name: 'get_weather', input: { city: 'Lima' } },
    ]);
    expect(message.stopReason).toBe('tool_use');
  });

  it('reasoning summaries become thinking, with the item id and encrypted content kept for replay', async () => {
    server.reply({ events: fixtureEvents('responses-reasoning.events.txt') });
    const events = await collectEvents(
      provider({ reasoningEffort: 'low' }).stream({ ...ask, model: 'o4-mini' }),
    );
    expect(eventTypes(events)).toEqual([
      'thinking_delta',
      'thinking_delta',
      'thinking_delta',
      'text_delta',
      'usage',
      'done',
    ]);
    const message = finalMessage(events);
    const [thinking, text] = message.content;
    expect(thinking).toMatchObject({
      type: 'thinking',
      thinking: '**Multiplying** 15 by 3 gives 45.\n\nDouble-checking: 45.',
    });
    expect(decodeReasoningSignature(thinking?.type === 'thinking' ? thinking.signature : undefined)).toEqual({
      id: 'rs_3d4e5f60718293a4b5c6d7e8f9a0b1c2d3',
      encryptedContent: 'gAAAAABo-ENCRYPTED-REASONING-0123456789abcdef==',
    });
    expect(text).toEqual({ type: 'text', text: '45' });
    expect(message.usage).toMatchObject({ input: 30, output: 210 });
  });

  it('reasoning with no summary is kept as a redacted thinking block', async () => {
    server.reply({
      events: [
        responsesEvent({
          type: 'response.output_item.added',
          output_index: 0,
          item: { id: 'rs_x', type: 'reasoning', summary: [] },
        }),
        responsesEvent({
          type: 'response.output_item.done',
          output_index: 0,
          item: { id: 'rs_x', type: 'reasoning', summary: [], encrypted_content: 'enc' },
        }),
        ...textEvents('Hi'),
        completed(),
      ],
    });
    const message = finalMessage(await collectEvents(provider().stream({ ...ask, model: 'o3' })));
    expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: '', redacted: true });
    expect(message.usage).toBeUndefined();
  });

  it('incomplete with max_output_tokens: max_tokens with the text so far', async () => {
    server.reply({ events: fixtureEvents('responses-incomplete.events.txt') });
    const message = finalMessage(await collectEvents(provider().stream(ask)));
    expect(message.stopReason).toBe('max_tokens');
    expect(message.content).toEqual([{ type: 'text', text: 'Once upon a time' }]);
  });

  it('incomplete by content_filter: refusal', async () => {
    server.reply({
      events: [
        ...textEvents('I'),
        completed(null, 'incomplete', { incomplete_details: { reason: 'content_filter' } }),
      ],
    });
    expect(finalMessage(await collectEvents(provider().stream(ask))).stopReason).toBe('refusal');
  });

  it('a function call cut off by max_output_tokens keeps its place with {} input', async () => {
    server.reply({
      events: [
        responsesEvent({
          type: 'response.output_item.added',
          output_index: 0,
          item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'write', arguments: '' },
        }),
        responsesEvent({
          type: 'response.function_call_arguments.delta',
          item_id: 'fc_1',
          output_index: 0,
          delta: '{"te',
        }),
        completed(null, 'incomplete', { incomplete_details: { reason: 'max_output_tokens' } }),
      ],
    });
    const message = finalMessage(await collectEvents(provider().stream(ask)));
    expect(message.stopReason).toBe('max_tokens');
    expect(message.content).toEqual([{ type: 'toolCall', id: 'call_1', name: 'write', input: {} }]);
  });

  it('a refusal is kept as text', async () => {
    server.reply({
      events: [
        responsesEvent({
          type: 'response.refusal.delta',
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          delta: 'No.',
        }),
        completed(),
      ],
    });
    expect(finalMessage(await collectEvents(provider().stream(ask))).content).toEqual([
      { type: 'text', text: 'No.' },
    ]);
  });
});

describe('responses: faults and abort', () => {
  it('response.failed maps its error code', async () => {
    server.reply({ events: fixtureEvents('responses-failed.events.txt') });
    const error = finalError(await collectEvents(provider().stream(ask)));
    expect(error).toMatchObject({ kind: 'server', retryable: true, provider: 'openai' });
    expect(error.message).toContain('The model failed to generate a response.');
  });

  it('an error event maps its code', async () => {
    server.reply({ events: fixtureEvents('responses-error-event.events.txt') });
    const error = finalError(await collectEvents(provider().stream(ask)));
    expect(error).toMatchObject({ kind: 'rate_limit', retryable: true });
    expect(error.message).toContain('Rate limit reached');
  });

  it.each([
    [429, 'rate_limit', true],
    [500, 'server', true],
    [503, 'overloaded', true],
    [401, 'auth', false],
    [400, 'invalid_request', false],
  ] as const)('HTTP %i is kind %s', async (status, kind, retryable) => {
    server.reply({ status, headers: { 'retry-after': '3' }, json: { error: { message: 'nope' } } });
    const error = finalError(await collectEvents(provider().stream(ask)));
    expect(error).toMatchObject({ kind, retryable, status });
    if (status === 429) expect(error.retryAfterMs).toBe(3000);
    expect(server.requests).toHaveLength(1);
  });

  it('a stream cut before response.completed: network error', async () => {
    server.reply({ events: textEvents('Hel'), drop: true });
    expect(finalError(await collectEvents(provider().stream(ask)))).toMatchObject({ kind: 'network' });
    server.reply({ events: textEvents('Hel') });
    expect(finalError(await collectEvents(provider().stream(ask)))).toMatchObject({ kind: 'network' });
  });

  it('a malformed event: malformed error', async () => {
    server.reply({ events: [...textEvents('a'), 'event: response.output_text.delta\ndata: {"type":\n\n'] });
    expect(finalError(await collectEvents(provider().stream(ask)))).toMatchObject({ kind: 'malformed' });
  });

  it('abort mid-stream: done/aborted with the text, the unfinished call dropped, connection closed', async () => {
    server.reply({
      events: [
        ...textEvents('Partial'),
        responsesEvent({
          type: 'response.output_item.added',
          output_index: 1,
          item: { id: 'fc_1', type: 'function_call', call_id: 'call_1', name: 'f', arguments: '' },
        }),
      ],
      hang: true,
    });
    const controller = new AbortController();
    const closed = server.waitForClientClose();
    const events = [];
    for await (const event of provider().stream(ask, { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'toolcall_start') controller.abort();
    }
    await closed;
    expect(finalMessage(events)).toMatchObject({
      stopReason: 'aborted',
      content: [{ type: 'text', text: 'Partial' }],
    });
  });
});
