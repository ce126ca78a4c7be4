import { stepOrchestrator } from '@agent-core/core/testing';
import { messageStart, sseEvent, textResponse, toolCallResponse } from '@agent-core/test-support';
import { Agent, type AgentEvent, type AgentMessage, ProviderError, toolCallsOf } from '@agent-core/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropic } from './anthropic.js';
import { loadSdk } from './load-sdk.js';
import {
  type AnthropicTestServer,
  errorBody,
  fixture,
  startAnthropicServer,
} from './test-support/anthropic-server.js';
import { jsonSchemaAddTool as add } from '@agent-core/test-support/sample-tools';

const model = 'claude-sonnet-4-6';
let server: AnthropicTestServer;
let fallbackServer: AnthropicTestServer;

beforeAll(async () => {
  [server, fallbackServer] = await Promise.all([startAnthropicServer(), startAnthropicServer()]);
  // The SDK loads on the first request; load it here so no test's own time limit pays for it.
  await loadSdk();
});
afterAll(async () => {
  await Promise.all([server.close(), fallbackServer.close()]);
});
let requestsBefore = 0;
let fallbackRequestsBefore = 0;
beforeEach(() => {
  requestsBefore = server.requests.length;
  fallbackRequestsBefore = fallbackServer.requests.length;
});
const requestsMade = () => server.requests.length - requestsBefore;
const fallbackRequestsMade = () => fallbackServer.requests.length - fallbackRequestsBefore;

function makeAgent(withFallback = false): Agent {
  return new Agent({
    provider: anthropic({ apiKey: 'sk-ant-test', baseURL: server.url }),
    model,
    systemPrompt: 'You add numbers.',
    tools: [add],
    orchestrator: stepOrchestrator,
    retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 },
    ...(withFallback
      ? { fallbackProvider: anthropic({ apiKey: 'sk-ant-fallback', baseURL: fallbackServer.url }) }
      : {}),
  });
}

/** Every tool call in the history has exactly one result, after it. */
function expectValidHistory(messages: readonly AgentMessage[]): void {
  const open = new Set<string>();
  const answered = new Set<string>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const call of toolCallsOf(message)) open.add(call.id);
    } else if (message.role === 'toolResult') {
      expect(open.has(message.toolCallId), `result ${message.toolCallId} follows its call`).toBe(true);
      expect(answered.has(message.toolCallId), `one result for ${message.toolCallId}`).toBe(false);
      answered.add(message.toolCallId);
    }
  }
  expect([...open].sort()).toEqual([...answered].sort());
}

const serverError = {
  type: 'json',
  status: 500,
  body: errorBody('api_error', 'Internal server error'),
} as const;

describe('an Agent on the Anthropic provider', () => {
  it('runs a tool-using conversation and sends each tool result paired with its call', async () => {
    server.reply(
      { type: 'sse', body: toolCallResponse('toolu_add', 'add', { a: 2, b: 3 }) },
      { type: 'sse', body: textResponse('2 + 3 = 5') },
    );
    const agent = makeAgent();
    const result = await agent.prompt('What is 2 + 3?').result();

    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('2 + 3 = 5');
    expect(result.toolCalls).toMatchObject([
      { id: 'toolu_add', name: 'add', input: { a: 2, b: 3 }, result: '5' },
    ]);
    expect(result.messages.map((message) => (message as { role: string }).role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'assistant',
    ]);
    expectValidHistory(result.messages);

    const second = server.requests[server.requests.length - 1]!.body;
    expect(second.system).toBe('You add numbers.');
    expect(second.tools[0]).toMatchObject({ name: 'add', input_schema: { type: 'object' } });
    expect(second.messages[1].content).toEqual([
      { type: 'tool_use', id: 'toolu_add', name: 'add', input: { a: 2, b: 3 } },
    ]);
    expect(second.messages[2].content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_add', content: '5' },
    ]);
  });

  it('retries a 429 after its Retry-After, then succeeds', async () => {
    server.reply(
      {
        type: 'json',
        status: 429,
        body: errorBody('rate_limit_error', 'Number of requests has exceeded your rate limit'),
        headers: { 'retry-after-ms': '3' },
      },
      { type: 'sse', body: textResponse('Done.') },
    );
    const agent = makeAgent();
    const run = agent.prompt('Hi');
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result();

    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('Done.');
    expect(requestsMade()).toBe(2);
    const retries = events.filter((event) => event.type === 'retry');
    expect(retries).toHaveLength(1);
    // The wait is the server's Retry-After, not the backoff's own choice.
    expect(retries[0]).toMatchObject({ attempt: 1, delayMs: 3 });
    expect((retries[0] as { error: ProviderError }).error.kind).toBe('rate_limit');
  });

  it('retries a 500 three times, then succeeds', async () => {
    server.reply(serverError, serverError, serverError, { type: 'sse', body: textResponse('Finally.') });
    const result = await makeAgent().prompt('Hi').result();
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('Finally.');
    expect(requestsMade()).toBe(4);
  });

  it('falls back to the fallback provider when retries run out', async () => {
    server.reply(serverError, serverError, serverError, serverError);
    fallbackServer.reply({ type: 'sse', body: textResponse('From the fallback.') });
    const result = await makeAgent(true).prompt('Hi').result();
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('From the fallback.');
    expect(requestsMade()).toBe(4);
    expect(fallbackRequestsMade()).toBe(1);
    expect(fallbackServer.requests[fallbackServer.requests.length - 1]!.headers['x-api-key']).toBe(
      'sk-ant-fallback',
    );
    expectValidHistory(result.messages);
  });

  it('does not retry or fall back on a 401, and ends with a clear auth error', async () => {
    server.reply({ type: 'json', status: 401, body: errorBody('authentication_error', 'invalid x-api-key') });
    const result = await makeAgent(true).prompt('Hi').result();
    expect(result.terminateReason).toBe('error');
    expect(requestsMade()).toBe(1);
    expect(fallbackRequestsMade()).toBe(0);
    expect(ProviderError.isInstance(result.error)).toBe(true);
    expect((result.error as ProviderError).kind).toBe('auth');
    expect(result.error?.message).toContain('invalid x-api-key');
    expect(result.error?.message).toContain('ANTHROPIC_API_KEY');
    expect(result.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('keeps a valid history when the API fails for good in the middle of a tool loop', async () => {
    server.reply(
      { type: 'sse', body: toolCallResponse('toolu_mid', 'add', { a: 1, b: 1 }) },
      serverError,
      serverError,
      serverError,
      serverError,
    );
    const result = await makeAgent().prompt('1 + 1?').result();
    expect(result.terminateReason).toBe('error');
    expect((result.error as ProviderError).kind).toBe('server');
    expect(result.error?.message).toContain('HTTP 500');
    expectValidHistory(result.messages);
    // The history can be sent again as it is: the next prompt succeeds.
    const agent = new Agent({ ...makeAgent().options, messages: result.messages });
    server.reply({ type: 'sse', body: textResponse('2') });
    const next = await agent.prompt('Try again').result();
    expect(next.terminateReason).toBe('completed');
    const sent = server.requests[server.requests.length - 1]!.body.messages;
    expect(sent[2].content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_mid' });
  });

  it('retries an overloaded error event that came after HTTP 200', async () => {
    server.reply(
      { type: 'sse', body: fixture('error-after-200') },
      { type: 'sse', body: textResponse('Recovered.') },
    );
    const result = await makeAgent().prompt('Hi').result();
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('Recovered.');
    expect(requestsMade()).toBe(2);
  });

  it('ends promptly on abort mid-stream, closing the connection and keeping a valid history', async () => {
    server.reply(
      { type: 'sse', body: toolCallResponse('toolu_first', 'add', { a: 1, b: 2 }) },
      {
        type: 'hang',
        body:
          messageStart() +
          sseEvent('content_block_start', {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'text', text: '' },
          }) +
          sseEvent('content_block_delta', {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: 'The sum' },
          }),
      },
    );
    const hungRequest = requestsBefore + 1;
    const controller = new AbortController();
    const run = makeAgent().prompt('1 + 2?', { signal: controller.signal });
    for await (const event of run) {
      if (event.type === 'text_delta') controller.abort();
    }
    const result = await run.result();
    expect(result.terminateReason).toBe('aborted');
    expect(requestsMade()).toBe(2);
    await server.closed(hungRequest);
    expectValidHistory(result.messages);
  });
});
