import { collectEvents, finalMessage } from '@agent-core/core/testing';
import { textResponse } from '@agent-core/test-support';
import type { Message, ModelRequest, ToolSpec } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { anthropic } from './anthropic.js';
import type { AnthropicOptions } from './anthropic-options.js';
import { useAnthropicServer } from './test-support/anthropic-server.js';

const model = 'claude-sonnet-4-6';
const server = useAnthropicServer();

/** Sends a request through the real SDK to the local server and returns the JSON body it received. */
async function sentBody(request: ModelRequest, options: AnthropicOptions = {}) {
  server.reply({ type: 'sse', body: textResponse('ok') });
  finalMessage(
    await collectEvents(anthropic({ apiKey: 'k', baseURL: server.url, ...options }).stream(request)),
  );
  return server.requests[server.requests.length - 1]!.body;
}

const weatherTool: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
    required: ['city'],
    additionalProperties: false,
  },
};
const timeTool: ToolSpec = { name: 'now', description: 'The current time.', parameters: { properties: {} } };

const toolHistory: Message[] = [
  { role: 'user', content: 'Weather in Paris and Rome?' },
  {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Checking both.' },
      { type: 'toolCall', id: 'toolu_paris', name: 'get_weather', input: { city: 'Paris' } },
      { type: 'toolCall', id: 'toolu_rome', name: 'get_weather', input: { city: 'Rome' } },
    ],
    stopReason: 'tool_use',
    provider: 'anthropic',
    model,
  },
  {
    role: 'toolResult',
    toolCallId: 'toolu_paris',
    toolName: 'get_weather',
    content: '18 C, cloudy',
    isError: false,
  },
  {
    role: 'toolResult',
    toolCallId: 'toolu_rome',
    toolName: 'get_weather',
    content: [{ type: 'text', text: 'weather service unavailable' }],
    isError: true,
  },
];

describe('the request body', () => {
  it('sends the system prompt and tools as JSON Schema', async () => {
    const body = await sentBody({
      model,
      system: 'You are terse.',
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [weatherTool, timeTool],
    });
    expect(body.system).toBe('You are terse.');
    expect(body.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Current weather for a city.',
        input_schema: weatherTool.parameters,
      },
      { name: 'now', description: 'The current time.', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(body.tool_choice).toBeUndefined();
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['none', { type: 'none' }],
    ['required', { type: 'any' }],
    [
      { type: 'tool', name: 'get_weather' },
      { type: 'tool', name: 'get_weather' },
    ],
  ] as const)('maps toolChoice %j to %j', async (choice, expected) => {
    const body = await sentBody({
      model,
      messages: [{ role: 'user', content: 'Hi' }],
      tools: [weatherTool],
      toolChoice: choice,
    });
    expect(body.tool_choice).toEqual(expected);
  });

  it('pairs tool results with their calls by tool_use_id in one user message', async () => {
    const body = await sentBody({ model, messages: toolHistory, tools: [weatherTool] });
    expect(body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking both.' },
          { type: 'tool_use', id: 'toolu_paris', name: 'get_weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_rome', name: 'get_weather', input: { city: 'Rome' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_paris', content: '18 C, cloudy' },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_rome',
            content: [{ type: 'text', text: 'weather service unavailable' }],
            is_error: true,
          },
        ],
      },
    ]);
  });

  it('merges consecutive user messages, tool results first, and drops empty ones', async () => {
    const body = await sentBody({
      model,
      messages: [
        ...toolHistory.slice(0, 3),
        { role: 'user', content: 'Also, be quick.' },
        { role: 'user', content: '' },
        toolHistory[3]!,
      ],
    });
    expect(body.messages).toHaveLength(3);
    expect(body.messages[2].content.map((block: { type: string }) => block.type)).toEqual([
      'tool_result',
      'tool_result',
      'text',
    ]);
  });

  it('sends maxTokens, temperature and stop sequences', async () => {
    const body = await sentBody({
      model,
      messages: [{ role: 'user', content: 'Count' }],
      maxTokens: 321,
      temperature: 0.2,
      stopSequences: ['STOP'],
    });
    expect(body).toMatchObject({ max_tokens: 321, temperature: 0.2, stop_sequences: ['STOP'] });
  });

  it('defaults max_tokens to the model output cap (at most 32,000), the option, or 4,096 for unknown models', async () => {
    const messages: Message[] = [{ role: 'user', content: 'x' }];
    expect((await sentBody({ model, messages })).max_tokens).toBe(32_000);
    expect((await sentBody({ model: 'claude-3-5-haiku-20241022', messages })).max_tokens).toBe(8_192);
    expect((await sentBody({ model: 'my-gateway-model', messages })).max_tokens).toBe(4_096);
    expect((await sentBody({ model, messages }, { defaultMaxTokens: 1000 })).max_tokens).toBe(1000);
  });

  it('keeps max_tokens above the thinking budget, and sends adaptive thinking', async () => {
    const messages: Message[] = [{ role: 'user', content: 'x' }];
    const budget = await sentBody({ model, messages, maxTokens: 1000 }, { thinking: { budgetTokens: 4000 } });
    expect(budget.thinking).toEqual({ type: 'enabled', budget_tokens: 4000 });
    expect(budget.max_tokens).toBe(5000);
    const adaptive = await sentBody({ model, messages }, { thinking: 'adaptive' });
    expect(adaptive.thinking).toEqual({ type: 'adaptive' });
  });

  it('puts cache_control on the system prompt, the last tool and the last message when promptCaching is on', async () => {
    const body = await sentBody(
      { model, system: 'Long system prompt.', messages: toolHistory, tools: [weatherTool, timeTool] },
      { promptCaching: true },
    );
    expect(body.system).toEqual([
      { type: 'text', text: 'Long system prompt.', cache_control: { type: 'ephemeral' } },
    ]);
    expect(body.tools[0].cache_control).toBeUndefined();
    expect(body.tools[1].cache_control).toEqual({ type: 'ephemeral' });
    const lastMessage = body.messages[body.messages.length - 1];
    expect(lastMessage.content[0].cache_control).toBeUndefined();
    expect(lastMessage.content[1].cache_control).toEqual({ type: 'ephemeral' });
    expect(JSON.stringify(body).match(/cache_control/g)).toHaveLength(3);
  });

  it('lets promptCaching pick its breakpoints', async () => {
    const body = await sentBody(
      { model, system: 'S', messages: [{ role: 'user', content: 'Hi' }], tools: [weatherTool] },
      { promptCaching: { messages: false } },
    );
    expect(body.system[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(body.tools[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(body.messages[0].content[0].cache_control).toBeUndefined();
  });

  it('sends no cache_control when promptCaching is off', async () => {
    const body = await sentBody({ model, system: 'S', messages: toolHistory, tools: [weatherTool] });
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });

  it('never changes the request it is given', async () => {
    const request: ModelRequest = {
      model,
      system: 'S',
      messages: structuredClone(toolHistory),
      tools: [structuredClone(weatherTool), structuredClone(timeTool)],
    };
    const before = structuredClone(request);
    await sentBody(request, { promptCaching: true });
    await sentBody(request, { promptCaching: true });
    expect(request).toEqual(before);
  });
});
