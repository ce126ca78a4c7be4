import { eventTypes } from '@agent-core/test-support';
import { collectEvents, finalError, finalMessage } from '@agent-core/core/testing';
import { describe, expect, it } from 'vitest';
import { openai } from '../openai.js';
import {
  chatDone,
  chatEvent,
  fixtureEvents,
  useFakeOpenAIServer,
} from '../test-support/fake-openai-server.js';

const server = useFakeOpenAIServer();

const weatherTool = {
  name: 'get_weather',
  description: 'Weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

async function replay(fixture: string, model = 'qwen2.5') {
  server.reply({ events: fixtureEvents(fixture) });
  const provider = openai({ baseURL: `${server.origin}/v1`, name: 'local' });
  return collectEvents(
    provider.stream({ model, messages: [{ role: 'user', content: 'go' }], tools: [weatherTool] }),
  );
}

describe('Chat Completions quirks of compatible servers (one recorded stream each)', () => {
  it('tool call deltas without index: told apart by id, continuations by position', async () => {
    const events = await replay('chat-missing-index.chunks.txt');
    const message = finalMessage(events);
    expect(message.content).toEqual([
      { type: 'toolCall', id: 'function-call-1', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'toolCall', id: 'function-call-2', name: 'get_time', input: { zone: 'Europe/Paris' } },
    ]);
    expect(message.stopReason).toBe('tool_use');
    expect(events.filter((event) => event.type === 'toolcall_end')).toHaveLength(2);
  });

  it('the id only in the first chunk, null ids and empty names after it', async () => {
    const events = await replay('chat-id-first-chunk-only.chunks.txt');
    expect(finalMessage(events).content).toEqual([
      { type: 'toolCall', id: 'chatcmpl-tool-8c1d0f3b', name: 'get_weather', input: { city: 'Oslo' } },
    ]);
    const deltas = events.filter((event) => event.type === 'toolcall_delta');
    expect(deltas.map((event) => event.type === 'toolcall_delta' && event.id)).toEqual([
      'chatcmpl-tool-8c1d0f3b',
      'chatcmpl-tool-8c1d0f3b',
    ]);
  });

  it('no id at all: a stable generated id, the same in every event and unique per stream', async () => {
    const events = await replay('chat-missing-id.chunks.txt');
    const calls = finalMessage(events).content.filter((block) => block.type === 'toolCall');
    expect(calls.map((call) => call.type === 'toolCall' && [call.name, call.input])).toEqual([
      ['get_weather', { city: 'Rome' }],
      ['get_time', {}],
    ]);
    const [first, second] = calls.map((call) => (call.type === 'toolCall' ? call.id : ''));
    expect(first).toMatch(/^call_\w+_0$/);
    expect(second).toMatch(/^call_\w+_1$/);
    const ids = new Set(
      events.flatMap((event) =>
        event.type === 'toolcall_start' || event.type === 'toolcall_delta'
          ? [event.id]
          : event.type === 'toolcall_end'
            ? [event.toolCall.id]
            : [],
      ),
    );
    expect(ids).toEqual(new Set([first, second]));
    const again = finalMessage(await replay('chat-missing-id.chunks.txt')).content[0];
    expect(again?.type === 'toolCall' && again.id).not.toBe(first);
  });

  it('the id and name repeated in every chunk: one call, arguments assembled once', async () => {
    const events = await replay('chat-repeated-id.chunks.txt');
    expect(eventTypes(events).filter((type) => type === 'toolcall_start')).toHaveLength(1);
    expect(finalMessage(events).content).toEqual([
      { type: 'toolCall', id: 'call_rep_1', name: 'get_weather', input: { city: 'Berlin' } },
    ]);
  });

  it('the whole call in one chunk, finished with `stop` (Ollama): tool_use', async () => {
    const events = await replay('chat-whole-call-one-chunk.chunks.txt', 'llama3.1:8b');
    const message = finalMessage(events);
    expect(message.content).toEqual([
      {
        type: 'toolCall',
        id: 'call_k2x9fm0q',
        name: 'get_weather',
        input: { city: 'Madrid', unit: 'celsius' },
      },
    ]);
    expect(message.stopReason).toBe('tool_use');
    expect(eventTypes(events)).toEqual(['toolcall_start', 'toolcall_delta', 'toolcall_end', 'usage', 'done']);
  });

  it('"" or missing arguments for no-argument tools give {}', async () => {
    const message = finalMessage(await replay('chat-empty-arguments.chunks.txt'));
    expect(message.content).toEqual([
      { type: 'toolCall', id: 'call_now', name: 'current_time', input: {} },
      { type: 'toolCall', id: 'call_rand', name: 'random_number', input: {} },
    ]);
  });

  it('two finish chunks: each call ends once, usage from the later chunk', async () => {
    const events = await replay('chat-two-finish-chunks.chunks.txt');
    expect(events.filter((event) => event.type === 'toolcall_end')).toHaveLength(1);
    const message = finalMessage(events);
    expect(message.content).toHaveLength(1);
    expect(message.usage).toEqual({ input: 33, output: 11, cacheRead: 0, cacheWrite: 0 });
  });

  it('usage in a trailing chunk with choices: [] and null details', async () => {
    const events = await replay('chat-usage-only-chunk.chunks.txt');
    const message = finalMessage(events);
    expect(message.content).toEqual([{ type: 'text', text: 'Hello there' }]);
    expect(message.usage).toEqual({ input: 12, output: 2, cacheRead: 0, cacheWrite: 0 });
    expect(events.at(-2)).toEqual({ type: 'usage', usage: message.usage });
  });

  it('no usage reported: the message has no usage and no usage event, never NaN', async () => {
    const events = await replay('chat-missing-usage.chunks.txt');
    const message = finalMessage(events);
    expect(message.usage).toBeUndefined();
    expect(eventTypes(events)).not.toContain('usage');
    expect(JSON.stringify(message)).not.toContain('NaN');
    expect(message.content).toEqual([{ type: 'text', text: 'No usage' }]);
  });

  it('reasoning_content deltas (DeepSeek) become thinking before the text', async () => {
    const events = await replay('chat-reasoning-content.chunks.txt', 'deepseek-reasoner');
    expect(eventTypes(events)).toEqual(['thinking_delta', 'thinking_delta', 'text_delta', 'usage', 'done']);
    expect(finalMessage(events).content).toEqual([
      { type: 'thinking', thinking: 'The user asks 2+2. That is 4.' },
      { type: 'text', text: '4' },
    ]);
  });

  it('reasoning deltas (OpenRouter, vLLM) become thinking; SSE comments are skipped', async () => {
    const events = await replay('chat-reasoning-field.chunks.txt', 'deepseek/deepseek-r1');
    expect(finalMessage(events).content).toEqual([
      { type: 'thinking', thinking: 'Sky colour: Rayleigh scattering.' },
      { type: 'text', text: 'Blue.' },
    ]);
    expect(finalMessage(events).usage).toEqual({ input: 9, output: 40, cacheRead: 0, cacheWrite: 0 });
  });

  it('arguments split inside a \\u escape and into many pieces are assembled exactly', async () => {
    const argumentsText = JSON.stringify({ text: `caf\u00e9 ${'x'.repeat(600)}` }).replace('é', '\\u00e9');
    const pieces = argumentsText.match(/.{1,3}/gs) ?? [];
    server.reply({
      events: [
        chatEvent({
          choices: [
            { index: 0, delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'echo' } }] } },
          ],
        }),
        ...pieces.map((piece) =>
          chatEvent({
            choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] } }],
          }),
        ),
        chatEvent({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
        chatDone,
      ],
    });
    const events = await collectEvents(
      openai({ baseURL: server.origin }).stream({ model: 'x', messages: [] }),
    );
    expect(events.filter((event) => event.type === 'toolcall_delta')).toHaveLength(pieces.length);
    const [call] = finalMessage(events).content;
    expect(call).toEqual({
      type: 'toolCall',
      id: 'c1',
      name: 'echo',
      input: { text: `café ${'x'.repeat(600)}` },
    });
  });

  it('arguments that are not JSON, without a length stop: a malformed error naming the tool', async () => {
    server.reply({
      events: [
        'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"c1","function":{"name":"get_weather","arguments":"{city: Paris"}}]},"finish_reason":"tool_calls"}]}\n\n',
        'data: [DONE]\n\n',
      ],
    });
    const provider = openai({ baseURL: `${server.origin}/v1` });
    const error = finalError(await collectEvents(provider.stream({ model: 'x', messages: [] })));
    expect(error.kind).toBe('malformed');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('get_weather');
    expect(error.provider).toBe('openai');
  });
});
