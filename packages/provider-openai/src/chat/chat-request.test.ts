import { collectEvents, finalMessage } from '@agent-core/core/testing';
import type { Message, ModelRequest } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { openai } from '../openai.js';
import type { OpenAIOptions } from '../openai-options.js';
import { chatText, useFakeOpenAIServer } from '../test-support/fake-openai-server.js';

const server = useFakeOpenAIServer();

async function sent(request: ModelRequest, options: OpenAIOptions = {}): Promise<any> {
  server.reply({ events: chatText('ok') });
  const provider = openai({ apiKey: 'sk-test', baseURL: `${server.origin}/v1`, ...options });
  finalMessage(await collectEvents(provider.stream(request)));
  expect(server.requests).toHaveLength(1);
  return server.requests[0]!.body;
}

const weather = {
  name: 'get_weather',
  description: 'Current weather in a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string', description: 'City name' } },
    required: ['city'],
    additionalProperties: false,
  },
};

const image = { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' };

describe('chat: request body', () => {
  it('system prompt first, streaming with usage, tools as JSON Schema functions', async () => {
    const body = await sent({
      model: 'gpt-4o',
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      tools: [weather],
      toolChoice: 'auto',
      temperature: 0.2,
      stopSequences: ['Observation:'],
      maxTokens: 256,
    });
    expect(body).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in Paris?' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: weather }],
      tool_choice: 'auto',
      temperature: 0.2,
      stop: ['Observation:'],
      max_tokens: 256,
    });
  });

  it('max_completion_tokens on OpenAI or when chosen; reasoning_effort when set', async () => {
    const body = await sent(
      { model: 'o4-mini', messages: [{ role: 'user', content: 'hi' }], maxTokens: 100 },
      { maxTokensField: 'max_completion_tokens', reasoningEffort: 'low' },
    );
    expect(body.max_completion_tokens).toBe(100);
    expect(body.max_tokens).toBeUndefined();
    expect(body.reasoning_effort).toBe('low');
  });

  it('a response format goes as response_format with a JSON schema', async () => {
    const schema = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] };
    const body = await sent({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { type: 'json_schema', name: 'complete_task', schema, strict: true },
    });
    expect(body.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'complete_task', schema, strict: true },
    });
  });

  it('a forced tool choice names the function', async () => {
    const body = await sent({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'x' }],
      tools: [weather],
      toolChoice: { type: 'tool', name: 'get_weather' },
    });
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'get_weather' } });
  });

  it('an image prompt goes as a data URL image part', async () => {
    const body = await sent({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, image] }],
    });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
    ]);
  });

  it('tool calls with JSON arguments, each result paired by tool_call_id', async () => {
    const history: Message[] = [
      { role: 'user', content: 'Weather in Paris and Tokyo?' },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'toolCall', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'toolCall', id: 'call_2', name: 'get_weather', input: { city: 'Tokyo' } },
        ],
        stopReason: 'tool_use',
        provider: 'openai',
        model: 'gpt-4o',
      },
      { role: 'toolResult', toolCallId: 'call_1', toolName: 'get_weather', content: 'Sunny', isError: false },
      {
        role: 'toolResult',
        toolCallId: 'call_2',
        toolName: 'get_weather',
        content: [{ type: 'text', text: 'City not found' }],
        isError: true,
      },
    ];
    const body = await sent({ model: 'gpt-4o', messages: history, tools: [weather] });
    expect(body.messages).toEqual([
      { role: 'user', content: 'Weather in Paris and Tokyo?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          {
            id: 'call_2',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
      { role: 'tool', tool_call_id: 'call_2', content: 'City not found' },
    ]);
  });

  it('images in tool results follow all the tool messages as one user message', async () => {
    const body = await sent({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'Screenshot both' },
        {
          role: 'assistant',
          content: [
            { type: 'toolCall', id: 'a', name: 'shot', input: {} },
            { type: 'toolCall', id: 'b', name: 'shot', input: {} },
          ],
          stopReason: 'tool_use',
        },
        { role: 'toolResult', toolCallId: 'a', toolName: 'shot', content: [image], isError: false },
        { role: 'toolResult', toolCallId: 'b', toolName: 'shot', content: 'no screen', isError: false },
      ],
    });
    expect(body.messages.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ]);
    expect(body.messages[1].content).toBeNull();
    expect(body.messages[2].content).toContain('1 image(s) follow');
    expect(body.messages[4].content).toEqual([
      { type: 'text', text: 'Images returned by tool shot (a):' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
    ]);
  });

  it('thinking goes back as reasoning_content only to the same provider and model', async () => {
    const thinkingTurn = (provider: string, model: string, signature?: string): Message => ({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Let me think.', ...(signature === undefined ? {} : { signature }) },
        { type: 'toolCall', id: 'c1', name: 'get_weather', input: { city: 'Paris' } },
      ],
      stopReason: 'tool_use',
      provider,
      model,
    });
    const rest: Message[] = [
      { role: 'toolResult', toolCallId: 'c1', toolName: 'get_weather', content: 'Sunny', isError: false },
    ];
    const same = await sent({
      model: 'deepseek-reasoner',
      messages: [thinkingTurn('openai', 'deepseek-reasoner'), ...rest],
    });
    expect(same.messages[0].reasoning_content).toBe('Let me think.');
    server.requests.length = 0;
    const otherModel = await sent({
      model: 'deepseek-chat',
      messages: [thinkingTurn('openai', 'deepseek-reasoner'), ...rest],
    });
    expect(otherModel.messages[0].reasoning_content).toBeUndefined();
    server.requests.length = 0;
    const anthropic = await sent({
      model: 'deepseek-reasoner',
      messages: [thinkingTurn('anthropic', 'deepseek-reasoner', 'EqQBCkYIBxgCKkD...'), ...rest],
    });
    expect(anthropic.messages[0]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
      ],
    });
  });

  it('an empty assistant message (aborted before any output) is left out', async () => {
    const body = await sent({
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: [], stopReason: 'aborted' },
        { role: 'user', content: 'b' },
      ],
    });
    expect(body.messages).toEqual([
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
    ]);
  });
});
