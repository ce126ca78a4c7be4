import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Agent,
  type AgentEvent,
  type AgentResult,
  defineTool,
  type Provider,
  stderrLogger,
} from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { anthropic } from '@agent-core/provider-anthropic';
import { openai } from '@agent-core/provider-openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { anthropicReply, chatReply, type SseFrame } from './test-support/scripted-sse-server.js';

// A run with a known fake API key through each real SDK against a local server that fails
// (401, then 500s with the key echoed back) and then succeeds: the key must appear in no log
// line, event, error message, result or stored history.

const anthropicKey = 'sk-ant-test-SECRET123abcdefghijklmnop';
const openaiKey = 'sk-proj-SECRETqrstuvwxyz0123456789';

type Reply = { status: number; body: (headers: IncomingHttpHeaders) => unknown } | { frames: SseFrame[] };

async function startServer(replies: Reply[], options: { done?: boolean } = {}) {
  let index = 0;
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const reply = replies[Math.min(index++, replies.length - 1)] as Reply;
      if ('status' in reply) {
        response.writeHead(reply.status, {
          'content-type': 'application/json',
          'x-echo-key': 'sk-ant-test-SECRET123abcdefghijklmnop',
        });
        response.end(JSON.stringify(reply.body(request.headers)));
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const frame of reply.frames)
        response.write(
          `${frame.event === undefined ? '' : `event: ${frame.event}\n`}data: ${JSON.stringify(frame.data)}\n\n`,
        );
      response.end(options.done === true ? 'data: [DONE]\n\n' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${port}`;
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const echoTool = defineTool({
  name: 'calculator',
  description: 'evaluates',
  parameters: z.object({ expression: z.string() }),
  execute: () => '45',
});

/** Everything a run leaves behind that a user might store or ship: logs, events, errors, result, history. */
async function runCapturing(agent: Agent, prompt: string) {
  const lines: string[] = [];
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
    lines.push(String(text));
    return true;
  });
  const events: AgentEvent[] = [];
  let result: AgentResult;
  try {
    const run = agent.prompt(prompt);
    for await (const event of run) events.push(event);
    result = await run.result();
  } finally {
    write.mockRestore();
  }
  const errorMessages = [
    result.error?.message ?? '',
    ...events.flatMap((event) =>
      event.type === 'retry' || event.type === 'error' ? [event.error.message] : [],
    ),
    ...events.flatMap((event) => (event.type === 'message_end' ? [event.message.errorMessage ?? ''] : [])),
  ];
  // What a session store writes: the history and the result as JSON.
  const stored = JSON.stringify({ messages: agent.messages, result });
  return { lines, events, result, errorMessages, stored };
}

function expectNoKey(captured: Awaited<ReturnType<typeof runCapturing>>, key: string) {
  const haystacks = [
    ...captured.lines,
    ...captured.events.map((event) => JSON.stringify(event)),
    ...captured.errorMessages,
    JSON.stringify(captured.result),
    captured.stored,
  ];
  for (const text of haystacks) {
    expect(text).not.toContain(key);
    expect(text).not.toContain('SECRET');
  }
  // The logs were really written and parse as JSON lines.
  expect(captured.lines.length).toBeGreaterThan(3);
  for (const line of captured.lines.join('').trimEnd().split('\n'))
    expect(() => JSON.parse(line)).not.toThrow();
}

/** An agent with the echo tool that retries three times at once and logs everything a key could leak into. */
function retryingAgent(provider: Provider, model: string): Agent {
  return new Agent({
    provider,
    model,
    tools: [echoTool],
    orchestrator: agentic(),
    retry: { maxRetries: 3, baseDelayMs: 1 },
    logger: stderrLogger('debug'),
  });
}

/** A run that failed on the 401: the error says so, the key the server echoed was removed (not absent), and it is nowhere. */
function expectRedacted401(failed: Awaited<ReturnType<typeof runCapturing>>, key: string): void {
  expect(failed.result.terminateReason).toBe('error');
  expect(failed.result.error?.message).toMatch(/401/);
  expect(failed.result.error?.message).toContain('[REDACTED]');
  expectNoKey(failed, key);
}

describe('no API key leaks into logs, events, errors or stored sessions', () => {
  it('Anthropic: 401 with the key echoed, then 500s echoing the headers, then success', async () => {
    const url = await startServer([
      {
        status: 401,
        body: (headers) => ({
          type: 'error',
          error: { type: 'authentication_error', message: `invalid x-api-key: ${headers['x-api-key']}` },
        }),
      },
      {
        status: 500,
        body: (headers) => ({
          type: 'error',
          error: { type: 'api_error', message: `headers ${JSON.stringify(headers)}` },
        }),
      },
      {
        status: 500,
        body: (headers) => ({
          type: 'error',
          error: { type: 'api_error', message: `x-api-key=${headers['x-api-key']}` },
        }),
      },
      {
        frames: anthropicReply({
          toolCall: { id: 'toolu_1', name: 'calculator', input: { expression: '15*3' } },
        }),
      },
      { frames: anthropicReply({ text: '45' }) },
    ]);
    const agent = retryingAgent(anthropic({ baseURL: url, apiKey: anthropicKey }), 'claude-sonnet-4-5');
    expectRedacted401(await runCapturing(agent, 'What is 15*3?'), anthropicKey);

    const recovered = await runCapturing(agent, 'Try again');
    expect(recovered.result.terminateReason).toBe('completed');
    expect(recovered.result.metrics.retries).toBe(2);
    expect(recovered.events.some((event) => event.type === 'retry')).toBe(true);
    expect(recovered.result.text).toBe('45');
    expectNoKey(recovered, anthropicKey);
  });

  it('OpenAI: 401 with the bearer token echoed, then 500s echoing the headers, then success', async () => {
    const url = await startServer(
      [
        {
          status: 401,
          body: (headers) => ({
            error: {
              message: `Incorrect API key provided: ${String(headers.authorization).replace('Bearer ', '')}. Sent: authorization: ${headers.authorization}`,
              type: 'invalid_request_error',
              code: 'invalid_api_key',
            },
          }),
        },
        {
          status: 500,
          body: (headers) => ({
            error: { message: `upstream saw ${JSON.stringify(headers)}`, type: 'server_error' },
          }),
        },
        {
          frames: chatReply({
            toolCall: { id: 'call_1', name: 'calculator', input: { expression: '15*3' } },
          }),
        },
        { frames: chatReply({ text: '45' }) },
      ],
      { done: true },
    );
    const agent = retryingAgent(openai({ baseURL: `${url}/v1`, apiKey: openaiKey }), 'gpt-5-mini');
    expectRedacted401(await runCapturing(agent, 'What is 15*3?'), openaiKey);

    const recovered = await runCapturing(agent, 'Try again');
    expect(recovered.result.terminateReason).toBe('completed');
    expect(recovered.result.text).toBe('45');
    expect(recovered.result.metrics.retries).toBe(1);
    expectNoKey(recovered, openaiKey);
  });
});
