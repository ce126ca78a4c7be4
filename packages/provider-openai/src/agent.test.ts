import { stepOrchestrator } from '@agent-core/core/testing';
import { Agent, ProviderError, toolCallsOf } from '@agent-core/core';
import type { AgentEvent, AgentMessage } from '@agent-core/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openai } from './openai.js';
import { loadSdk } from './load-sdk.js';
import { chatChunk, chatDone, chatText, startFakeOpenAIServer } from './test-support/fake-openai-server.js';
import type { FakeOpenAIServer } from './test-support/fake-openai-server.js';
import { jsonSchemaAddTool as add } from '@agent-core/test-support/sample-tools';

let server: FakeOpenAIServer;
let fallbackServer: FakeOpenAIServer;
beforeAll(async () => {
  server = await startFakeOpenAIServer();
  fallbackServer = await startFakeOpenAIServer();
  // The SDK loads on the first request; load it here so no test's own time limit pays for it.
  await loadSdk();
});
afterAll(async () => {
  await server.close();
  await fallbackServer.close();
});
beforeEach(() => {
  server.requests.length = 0;
  fallbackServer.requests.length = 0;
});

function agentOn(options: { fallback?: boolean } = {}) {
  return new Agent({
    provider: openai({ apiKey: 'sk-test', baseURL: `${server.origin}/v1` }),
    model: 'gpt-4o-mini',
    systemPrompt: 'You add numbers.',
    tools: [add],
    orchestrator: stepOrchestrator,
    retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 20 },
    ...(options.fallback === true
      ? { fallbackProvider: openai({ baseURL: `${fallbackServer.origin}/v1`, name: 'fallback' }) }
      : {}),
  });
}

async function run(agent: Agent, text: string, signal?: AbortSignal) {
  const agentRun = agent.prompt(text, signal === undefined ? {} : { signal });
  const events: AgentEvent[] = [];
  for await (const event of agentRun) events.push(event);
  return { events, result: await agentRun.result() };
}

/** Every tool call has exactly one result, right after its call's message, and nothing else is half-done. */
function expectValidHistory(messages: readonly AgentMessage[]) {
  const open = new Set<string>();
  for (const message of messages) {
    if (!('role' in message)) continue;
    if (message.role === 'toolResult') {
      expect(open.has(message.toolCallId)).toBe(true);
      open.delete(message.toolCallId);
    } else {
      expect(open.size).toBe(0);
      if (message.role === 'assistant') for (const call of toolCallsOf(message)) open.add(call.id);
    }
  }
  expect(open.size).toBe(0);
}

const addCall = [
  chatChunk({
    role: 'assistant',
    tool_calls: [
      { index: 0, id: 'call_add', type: 'function', function: { name: 'add', arguments: '{"a":2,' } },
    ],
  }),
  chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"b":3}' } }] }),
  chatChunk({}, 'tool_calls', { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 }),
  chatDone,
];
const serverError = { status: 500, json: { error: { message: 'Internal error', type: 'server_error' } } };

describe('an Agent on the openai provider', () => {
  it('runs a tool-using conversation and sends the result back paired with its call', async () => {
    server.reply(
      { events: addCall },
      {
        events: chatText('2 + 3 = 5', 'stop', { prompt_tokens: 70, completion_tokens: 8, total_tokens: 78 }),
      },
    );
    const { result } = await run(agentOn(), 'What is 2 + 3?');
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('2 + 3 = 5');
    expect(result.toolCalls).toMatchObject([
      { id: 'call_add', name: 'add', input: { a: 2, b: 3 }, result: '5', isError: false },
    ]);
    expect(result.usage).toMatchObject({ input: 120, output: 18 });
    expectValidHistory(result.messages);
    const second = server.requests[1]!.body;
    expect(second.messages).toEqual([
      { role: 'system', content: 'You add numbers.' },
      { role: 'user', content: 'What is 2 + 3?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_add', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_add', content: '5' },
    ]);
    expect(second.tools[0].function.name).toBe('add');
  });

  it('429 with Retry-After, then success: retried once after the server-given delay', async () => {
    server.reply(
      {
        status: 429,
        headers: { 'retry-after-ms': '7' },
        json: { error: { message: 'Slow down', code: 'rate_limit_exceeded' } },
      },
      { events: chatText('5') },
    );
    const { events, result } = await run(agentOn(), 'What is 2 + 3?');
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('5');
    const retries = events.filter((event) => event.type === 'retry');
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ delayMs: 7, error: { kind: 'rate_limit', retryAfterMs: 7 } });
    expect(server.requests).toHaveLength(2);
    expectValidHistory(result.messages);
  });

  it('500 three times, then success', async () => {
    server.reply(serverError, serverError, serverError, { events: chatText('5') });
    const { events, result } = await run(agentOn(), 'What is 2 + 3?');
    expect(result.terminateReason).toBe('completed');
    expect(events.filter((event) => event.type === 'retry')).toHaveLength(3);
    expect(server.requests).toHaveLength(4);
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', provider: 'openai' });
  });

  it('500 until the retries run out, then the fallback provider answers', async () => {
    server.reply(serverError, serverError, serverError, serverError);
    fallbackServer.reply({ events: chatText('5 (from the fallback)') });
    const { result } = await run(agentOn({ fallback: true }), 'What is 2 + 3?');
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('5 (from the fallback)');
    expect(server.requests).toHaveLength(4);
    expect(fallbackServer.requests).toHaveLength(1);
    expect(fallbackServer.requests[0]!.headers.authorization).toBe('Bearer not-needed');
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', provider: 'fallback' });
    expectValidHistory(result.messages);
  });

  it('500 everywhere: the run ends with a clear server error and a valid history', async () => {
    server.reply(serverError, serverError, serverError, serverError);
    const { result } = await run(agentOn(), 'What is 2 + 3?');
    expect(result.terminateReason).toBe('error');
    expect(ProviderError.isInstance(result.error) && result.error.kind).toBe('server');
    expect(result.error?.message).toContain('Internal error');
    expect(result.messages).toEqual([{ role: 'user', content: 'What is 2 + 3?' }]);
  });

  it('401 is not retried and not sent to the fallback', async () => {
    server.reply({
      status: 401,
      json: { error: { message: 'Incorrect API key provided', code: 'invalid_api_key' } },
    });
    const { events, result } = await run(agentOn({ fallback: true }), 'What is 2 + 3?');
    expect(result.terminateReason).toBe('error');
    expect(result.error).toMatchObject({ kind: 'auth', retryable: false, status: 401 });
    expect(result.error?.message).toContain('OPENAI_API_KEY');
    expect(events.filter((event) => event.type === 'retry')).toHaveLength(0);
    expect(server.requests).toHaveLength(1);
    expect(fallbackServer.requests).toHaveLength(0);
    expectValidHistory(result.messages);
  });

  it('an error inside the stream after some text: the partial answer is discarded and the call retried', async () => {
    server.reply(
      {
        events: [
          chatChunk({ role: 'assistant', content: 'The answ' }),
          'data: {"error":{"message":"overloaded","type":"server_overloaded"}}\n\n',
        ],
      },
      { events: chatText('5') },
    );
    const { events, result } = await run(agentOn(), 'What is 2 + 3?');
    expect(result.terminateReason).toBe('completed');
    expect(events.find((event) => event.type === 'retry')).toMatchObject({
      discardedPartial: true,
      error: { kind: 'overloaded' },
    });
    expect(result.messages).toEqual([
      { role: 'user', content: 'What is 2 + 3?' },
      expect.objectContaining({ role: 'assistant', content: [{ type: 'text', text: '5' }] }),
    ]);
  });

  it('aborted while a tool call streams: ends aborted, the half call never runs, the history stays valid', async () => {
    server.reply({
      events: [
        chatChunk({ role: 'assistant', content: 'Adding.' }),
        chatChunk({
          tool_calls: [{ index: 0, id: 'call_half', function: { name: 'add', arguments: '{"a":' } }],
        }),
      ],
      hang: true,
    });
    const controller = new AbortController();
    const agentRun = agentOn().prompt('What is 2 + 3?', { signal: controller.signal });
    for await (const event of agentRun) if (event.type === 'text_delta') controller.abort();
    const result = await agentRun.result();
    expect(result.terminateReason).toBe('aborted');
    expect(result.toolCalls).toHaveLength(0);
    expectValidHistory(result.messages);
  });
});
