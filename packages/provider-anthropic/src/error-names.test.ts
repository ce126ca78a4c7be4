import { collectEvents, finalError, finalMessage } from '@agent-core/core/testing';
import { textResponse } from '@agent-core/test-support';
import type { ModelRequest } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { anthropic } from './anthropic.js';
import { errorBody, useAnthropicServer } from './test-support/anthropic-server.js';
import { toAnthropicRequest } from './to-anthropic-request.js';

// Errors name who answered, as configured: another server's errors must not read as Anthropic's.

const request: ModelRequest = { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'Hello' }] };
const refusal = {
  type: 'json',
  status: 400,
  body: errorBody('invalid_request_error', 'messages.1.content: Field required'),
} as const;
const server = useAnthropicServer({ quietSdk: true });

describe('error messages name the provider as configured', () => {
  it('another server, no name: its host; the provider is still `anthropic`', async () => {
    server.reply(refusal);
    const error = finalError(
      await collectEvents(anthropic({ apiKey: 'k', baseURL: server.url }).stream(request)),
    );
    const host = new URL(server.url).host;
    expect(error.message).toMatch(
      new RegExp(`^${host.replaceAll('.', '\\.')} error \\(HTTP 400, invalid_request_error\\)`),
    );
    expect(error.message).not.toContain('Anthropic');
    expect(error.provider).toBe('anthropic');
  });

  it('the name option: in messages, on errors and on the answers', async () => {
    const provider = anthropic({ apiKey: 'k', baseURL: server.url, name: 'llama.cpp' });
    expect(provider.name).toBe('llama.cpp');
    server.reply(refusal);
    const error = finalError(await collectEvents(provider.stream(request)));
    expect(error.message).toMatch(/^llama\.cpp error \(HTTP 400, invalid_request_error\)/);
    expect(error.provider).toBe('llama.cpp');
    server.reply({ type: 'sse', body: textResponse('Hi') });
    expect(finalMessage(await collectEvents(provider.stream(request))).provider).toBe('llama.cpp');
  });

  it("Anthropic's own URL: Anthropic API", async () => {
    server.reply(refusal);
    const before = server.requests.length;
    // Anthropic's base URL, with the requests sent to the local server instead.
    const local: typeof fetch = (input, init) =>
      fetch(
        String(input instanceof Request ? input.url : input).replace('https://api.anthropic.com', server.url),
        init,
      );
    const provider = anthropic({ apiKey: 'k', baseURL: 'https://api.anthropic.com', fetch: local });
    const error = finalError(await collectEvents(provider.stream(request)));
    expect(server.requests.length - before).toBe(1);
    expect(error.message).toMatch(/^Anthropic API error \(HTTP 400, invalid_request_error\)/);
  });

  it('a server that cannot be reached is named by its host', async () => {
    const error = finalError(
      await collectEvents(
        anthropic({ apiKey: 'k', baseURL: 'http://127.0.0.1:9', timeoutMs: 5_000 }).stream(request),
      ),
    );
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^Could not reach 127\.0\.0\.1:9 /);
  });

  it('an empty name is refused at once', () => {
    expect(() => anthropic({ name: '' })).toThrow(/name must be a non-empty string/);
  });

  it('thinking is replayed to the provider that wrote it, by its configured name', () => {
    const history: ModelRequest['messages'] = [
      { role: 'user', content: 'Hi' },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 'sig' },
          { type: 'text', text: 'Hello' },
        ],
        stopReason: 'end_turn',
        provider: 'llama.cpp',
        model: 'local',
      },
    ];
    const sent = (providerName: string) =>
      JSON.stringify(toAnthropicRequest({ model: 'local', messages: history }, { providerName }).messages);
    expect(sent('llama.cpp')).toContain('"thinking":"hmm"');
    expect(sent('anthropic')).not.toContain('"thinking":"hmm"');
  });
});

describe('a context overflow carries the figures the server states', () => {
  it.each([
    [
      'prompt is too long',
      errorBody('invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum'),
      { contextLimit: 200000, promptTokens: 208310, reservedOutputTokens: undefined },
    ],
    [
      'input length and max_tokens',
      errorBody(
        'invalid_request_error',
        'input length and `max_tokens` exceed context limit: 178959 + 64000 > 200000, decrease input length or `max_tokens` and try again',
      ),
      { contextLimit: 200000, promptTokens: 178959, reservedOutputTokens: 64000 },
    ],
    [
      "llama.cpp's fields",
      {
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
          n_prompt_tokens: 5120,
          n_ctx: 4096,
        },
      },
      { contextLimit: 4096, promptTokens: 5120, reservedOutputTokens: undefined },
    ],
  ])('%s', async (_, body, figures) => {
    server.reply({ type: 'json', status: 400, body });
    const error = finalError(
      await collectEvents(anthropic({ apiKey: 'k', baseURL: server.url }).stream(request)),
    );
    expect(error).toMatchObject({ kind: 'context_overflow', retryable: false, ...figures });
  });
});
