import { readFileSync } from 'node:fs';
import { checkValidHistory } from '@agent-core/core/testing';
import {
  Agent,
  type AgentEvent,
  type AgentMessage,
  ContextOverflowError,
  isCompactionMessage,
  messageText,
  type Provider,
} from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { anthropic } from '@agent-core/provider-anthropic';
import { openai } from '@agent-core/provider-openai';
import { describe, expect, it } from 'vitest';
import {
  anthropicReply,
  chatReply,
  type ErrorReply,
  closeServersAfterEach,
  type SseFrame,
  startScriptedSseServer,
} from './test-support/scripted-sse-server.js';

// A provider refusing a request as longer than its context window, through the real SDKs and
// their wire formats: the agent compacts once and retries once; a second refusal ends the run.

function recorded(name: string, status = 400): ErrorReply {
  return {
    status,
    json: JSON.parse(readFileSync(new URL(`./__fixtures__/${name}.error.json`, import.meta.url), 'utf8')),
  };
}

// A stored conversation to resume: three earlier exchanges the compaction can drop.
const stored: AgentMessage[] = [1, 2, 3].flatMap((turn): AgentMessage[] => [
  { role: 'user', content: `Earlier question ${turn}: ${'context '.repeat(200)}` },
  { role: 'assistant', content: [{ type: 'text', text: `Earlier answer ${turn}.` }], stopReason: 'end_turn' },
]);

const closeAfterTest = closeServersAfterEach();

interface Backend {
  name: string;
  overflow: ErrorReply;
  answer: SseFrame[];
  basePath: string;
  done: boolean;
  provider(url: string): Provider;
  /** The messages of a recorded request body, as the wire format holds them. */
  messages(body: Record<string, unknown>): unknown[];
}

const backends: Backend[] = [
  {
    name: 'Anthropic Messages',
    overflow: recorded('anthropic-prompt-too-long'),
    answer: anthropicReply({ text: 'Fits now.' }),
    basePath: '',
    done: false,
    provider: (url) => anthropic({ baseURL: url, apiKey: 'test' }),
    messages: (body) => body.messages as unknown[],
  },
  {
    name: 'OpenAI Chat Completions',
    overflow: recorded('openai-context-length-exceeded'),
    answer: chatReply({ text: 'Fits now.' }),
    basePath: '/v1',
    done: true,
    provider: (url) => openai({ baseURL: url, apiKey: 'test' }),
    messages: (body) => body.messages as unknown[],
  },
];

async function run(backend: Backend, replies: (SseFrame[] | ErrorReply)[]) {
  const server = await startScriptedSseServer(replies, { basePath: backend.basePath, done: backend.done });
  closeAfterTest(server);
  const agent = new Agent({
    provider: backend.provider(server.url),
    model: 'model-under-test',
    orchestrator: agentic(),
    messages: stored,
    // The window's own count thinks everything fits: only the provider knows better.
    contextWindow: { budgetTokens: 100_000 },
  });
  const prompt = agent.prompt('And now the new question?');
  const events: AgentEvent[] = [];
  for await (const event of prompt) events.push(event);
  return { server, events, result: await prompt.result() };
}

describe.each(backends)('context overflow through $name', (backend) => {
  it('the recorded refusal: one compaction, one retry, success', async () => {
    const { server, events, result } = await run(backend, [backend.overflow, backend.answer]);
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('Fits now.');
    expect(server.requests).toHaveLength(2);
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type === 'compaction' || type === 'retry')).toEqual([
      'compaction',
      'retry',
    ]);
    const compaction = events.find((event) => event.type === 'compaction');
    // Aimed below what the window counted (80 % of it): the oldest exchange goes.
    expect(compaction).toMatchObject({ reason: 'overflow', droppedMessages: 1, summarized: false });
    const retry = events.find((event) => event.type === 'retry');
    expect(retry).toMatchObject({ delayMs: 0, error: { kind: 'context_overflow' } });

    const [refused, retried] = server.requests.map(backend.messages) as [unknown[], unknown[]];
    expect(refused).toHaveLength(7);
    expect(JSON.stringify(retried[0])).toContain('1 earlier message was removed');
    expect(JSON.stringify(retried)).not.toContain('Earlier question 1');
    expect(JSON.stringify(retried)).toContain('Earlier question 2');
    expect(JSON.stringify(retried.at(-1))).toContain('And now the new question?');

    // The history keeps everything, and where it was compacted.
    expect(result.messages.filter(isCompactionMessage)).toHaveLength(1);
    expect(result.messages.filter((message) => message.role === 'user')).toHaveLength(4);
    checkValidHistory(result.messages);
    expect(messageText(result.messages.at(-1) as never)).toBe('Fits now.');
  });

  it('a second refusal ends the run with a clear error, after exactly two requests', async () => {
    const { server, events, result } = await run(backend, [
      backend.overflow,
      backend.overflow,
      backend.answer,
    ]);
    expect(result.terminateReason).toBe('error');
    expect(result.error).toBeInstanceOf(ContextOverflowError);
    expect(result.error?.message).toMatch(
      /still refused the request as longer than its context window after one compaction/,
    );
    expect(server.requests).toHaveLength(2);
    expect(events.filter((event) => event.type === 'compaction')).toHaveLength(1);
    checkValidHistory(result.messages);
  });
});

describe('context overflow through OpenAI Responses', () => {
  it('a refusal on the retry too ends the run with a clear error', async () => {
    const overflow = recorded('responses-context-length-exceeded');
    const server = await startScriptedSseServer([overflow, overflow], { basePath: '/v1' });
    closeAfterTest(server);
    const agent = new Agent({
      provider: openai({ baseURL: server.url, apiKey: 'test', api: 'responses' }),
      model: 'model-under-test',
      orchestrator: agentic(),
      messages: stored,
      contextWindow: { budgetTokens: 100_000 },
    });
    const result = await agent.prompt('And now?').result();
    expect(result.error).toBeInstanceOf(ContextOverflowError);
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(server.requests[0]?.input)).toContain('Earlier question 1');
    expect(JSON.stringify(server.requests[1]?.input)).not.toContain('Earlier question 1');
    expect(JSON.stringify(server.requests[1]?.input)).toContain('1 earlier message was removed');
  });
});
