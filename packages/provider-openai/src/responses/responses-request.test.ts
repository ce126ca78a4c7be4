import { collectEvents, finalMessage } from '@agent-core/core/testing';
import type { Message, ModelRequest } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { openai } from '../openai.js';
import type { OpenAIOptions } from '../openai-options.js';
import { responsesEvent, useFakeOpenAIServer } from '../test-support/fake-openai-server.js';
import { encodeReasoningSignature } from './reasoning-signature.js';

const server = useFakeOpenAIServer();

const ok = [
  responsesEvent({
    type: 'response.completed',
    response: { id: 'r', status: 'completed', output: [], usage: null },
  }),
];

async function sent(request: ModelRequest, options: OpenAIOptions = {}): Promise<any> {
  server.reply({ events: ok });
  const provider = openai({
    apiKey: 'sk-test',
    baseURL: `${server.origin}/v1`,
    api: 'responses',
    ...options,
  });
  finalMessage(await collectEvents(provider.stream(request)));
  return server.requests[0]!.body;
}

const weather = {
  name: 'get_weather',
  description: 'Current weather in a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const image = { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' };

describe('responses: request body', () => {
  it('a response format goes as text.format with a JSON schema', async () => {
    const schema = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] };
    const body = await sent({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { type: 'json_schema', name: 'complete_task', schema, description: 'the report' },
    });
    expect(body.text).toEqual({
      format: { type: 'json_schema', name: 'complete_task', schema, description: 'the report' },
    });
  });

  it('instructions, input, function tools, options; not stored', async () => {
    const body = await sent({
      model: 'gpt-4.1',
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, image] }],
      tools: [weather],
      toolChoice: { type: 'tool', name: 'get_weather' },
      maxTokens: 300,
      temperature: 0,
      stopSequences: ['never sent'],
    });
    expect(body).toEqual({
      model: 'gpt-4.1',
      instructions: 'Be brief.',
      input: [
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is this?' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
          ],
        },
      ],
      stream: true,
      store: false,
      tools: [{ type: 'function', ...weather, strict: false }],
      tool_choice: { type: 'function', name: 'get_weather' },
      max_output_tokens: 300,
      temperature: 0,
    });
  });

  it('reasoning models ask for encrypted reasoning; reasoningEffort asks for summaries', async () => {
    const body = await sent(
      { model: 'o4-mini', messages: [{ role: 'user', content: 'hi' }] },
      { reasoningEffort: 'high' },
    );
    expect(body.reasoning).toEqual({ effort: 'high', summary: 'auto' });
    expect(body.include).toEqual(['reasoning.encrypted_content']);
  });

  it('history: assistant text, function calls and outputs paired by call_id, same-model reasoning replayed', async () => {
    const signature = encodeReasoningSignature({ id: 'rs_1', encryptedContent: 'enc==' });
    const history: Message[] = [
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Need the tool.', signature },
          { type: 'text', text: 'Checking.' },
          { type: 'toolCall', id: 'call_1', name: 'get_weather', input: { city: 'Paris' } },
        ],
        stopReason: 'tool_use',
        provider: 'openai',
        model: 'o4-mini',
      },
      { role: 'toolResult', toolCallId: 'call_1', toolName: 'get_weather', content: 'Sunny', isError: false },
      {
        role: 'toolResult',
        toolCallId: 'call_2',
        toolName: 'shot',
        content: [{ type: 'text', text: 'see' }, image],
        isError: false,
      },
    ];
    const body = await sent({ model: 'o4-mini', messages: history });
    expect(body.input).toEqual([
      { type: 'message', role: 'user', content: 'Weather in Paris?' },
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Need the tool.' }],
        encrypted_content: 'enc==',
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
      { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'Sunny' },
      {
        type: 'function_call_output',
        call_id: 'call_2',
        output: [
          { type: 'input_text', text: 'see' },
          { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' },
        ],
      },
    ]);
  });

  it('reasoning from another model or provider is dropped, never sent malformed', async () => {
    const assistantHi = {
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Hi' }],
    };
    const signature = encodeReasoningSignature({ id: 'rs_1', encryptedContent: 'enc==' });
    const turn = (provider: string, model: string, thinkingSignature: string): Message => ({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: thinkingSignature },
        { type: 'text', text: 'Hi' },
      ],
      stopReason: 'end_turn',
      provider,
      model,
    });
    const otherModel = await sent({ model: 'gpt-5', messages: [turn('openai', 'o4-mini', signature)] });
    expect(otherModel.input).toEqual([assistantHi]);
    server.requests.length = 0;
    const anthropic = await sent({
      model: 'o4-mini',
      messages: [turn('anthropic', 'o4-mini', 'EqQBCkYIBxgCKkD')],
    });
    expect(anthropic.input).toEqual([assistantHi]);
  });
});
