import { collectEvents, finalError } from '@agent-core/core/testing';
import type { ModelRequest } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { openai } from './openai.js';
import { useFakeOpenAIServer } from './test-support/fake-openai-server.js';

// Errors name who answered: an error from llama.cpp or a proxy must not read as OpenAI's.

const server = useFakeOpenAIServer();

const ask: ModelRequest = { model: 'local-model', messages: [{ role: 'user', content: 'hi' }] };
const refused = {
  status: 400,
  json: { error: { message: 'model not found', type: 'invalid_request_error', code: 400 } },
};

describe('error messages name the provider as configured', () => {
  it('another server, no name: its host, and the provider is still `openai`', async () => {
    server.reply(refused);
    const error = finalError(await collectEvents(openai({ baseURL: `${server.origin}/v1` }).stream(ask)));
    const host = new URL(server.origin).host;
    expect(error.message).toBe(`${host}: HTTP 400 model not found`);
    expect(error.provider).toBe('openai');
  });

  it('the name option, when given', async () => {
    server.reply(refused);
    const provider = openai({ baseURL: `${server.origin}/v1`, name: 'llama.cpp', api: 'responses' });
    const error = finalError(await collectEvents(provider.stream(ask)));
    expect(error.message).toBe('llama.cpp: HTTP 400 model not found');
    expect(error.provider).toBe('llama.cpp');
  });

  it("OpenAI's own URL: openai", async () => {
    server.reply(refused);
    // The default base URL, with the requests sent to the local server instead.
    const local: typeof fetch = (input, init) =>
      fetch(
        String(input instanceof Request ? input.url : input).replace('https://api.openai.com', server.origin),
        init,
      );
    const error = finalError(await collectEvents(openai({ apiKey: 'sk-test', fetch: local }).stream(ask)));
    expect(server.requests).toHaveLength(1);
    expect(error.message).toBe('openai: HTTP 400 model not found');
  });

  it('a server that cannot be reached is named by its host', async () => {
    const unreachable = openai({ baseURL: 'http://127.0.0.1:9/v1', timeoutMs: 5_000 });
    const error = finalError(await collectEvents(unreachable.stream(ask)));
    expect(error.kind).toBe('network');
    expect(error.message).toMatch(/^127\.0\.0\.1:9: could not reach the server/);
  });
});
