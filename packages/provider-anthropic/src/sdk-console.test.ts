import { collectEvents, finalError } from '@agent-core/core/testing';
import { textResponse } from '@agent-core/test-support';
import type { ModelRequest } from '@agent-core/core';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { anthropic } from './anthropic.js';
import { type AnthropicTestServer, startAnthropicServer } from './test-support/anthropic-server.js';

// A file of its own: the SDK binds console's methods the first time a client logs, so the spies
// must be in place before any client of this module is made.
const consoleCalls: unknown[][] = [];
let server: AnthropicTestServer;

beforeAll(async () => {
  for (const method of ['error', 'warn', 'info', 'log', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...values: unknown[]) => {
      consoleCalls.push([method, ...values]);
    });
  }
  server = await startAnthropicServer();
});
afterAll(async () => {
  vi.restoreAllMocks();
  await server.close();
});

it('writes nothing to the console when a stream event is not JSON: the failure is an error event only', async () => {
  const whole = textResponse('private model output');
  const broken = 'event: content_block_delta\ndata: {"type":"content_block_delta","delta":{"text":"priv\n\n';
  server.reply({ type: 'sse', body: whole.slice(0, whole.indexOf('event: content_block_delta')) + broken });
  const provider = anthropic({ apiKey: 'sk-ant-test', baseURL: server.url });
  const request: ModelRequest = { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Hi' }] };
  const failure = finalError(await collectEvents(provider.stream(request)));
  expect(failure.kind).toBe('malformed');
  expect(consoleCalls).toEqual([]);
});
