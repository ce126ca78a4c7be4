import { collectEvents, finalError, finalMessage } from '@agent-core/core/testing';
import { getEventListeners } from 'node:events';
import { ProviderError, getProvider, listProviders } from '@agent-core/core';
import type { ModelRequest } from '@agent-core/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openai } from './index.js';
import { chatText, useFakeOpenAIServer } from './test-support/fake-openai-server.js';

const server = useFakeOpenAIServer();
beforeEach(() => {
  vi.stubEnv('OPENAI_API_KEY', undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

const ask: ModelRequest = {
  model: 'gpt-4o-mini',
  messages: [{ role: 'user', content: 'hi' }],
  maxTokens: 50,
};

/** Sends requests for OpenAI's own URL to the fake server instead. */
const toFakeServer: typeof fetch = (input, init) =>
  fetch(
    String(input instanceof Request ? input.url : input).replace('https://api.openai.com', server.origin),
    init,
  );

describe('openai(): options', () => {
  it('no key for OpenAI itself: an auth error that says what to set, and no request', async () => {
    const events = await collectEvents(openai({ fetch: toFakeServer }).stream(ask));
    const error = finalError(events);
    expect(error).toMatchObject({ kind: 'auth', retryable: false, provider: 'openai' });
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(error.message).toContain('apiKey');
    expect(server.requests).toHaveLength(0);
  });

  it('reads OPENAI_API_KEY when a request is made, not when built', async () => {
    const provider = openai({ fetch: toFakeServer });
    vi.stubEnv('OPENAI_API_KEY', 'sk-from-env');
    server.reply({ events: chatText('hello') });
    finalMessage(await collectEvents(provider.stream(ask)));
    vi.stubEnv('OPENAI_API_KEY', 'sk-rotated');
    server.reply({ events: chatText('again') });
    finalMessage(await collectEvents(provider.stream(ask)));
    expect(server.requests.map((request) => request.headers.authorization)).toEqual([
      'Bearer sk-from-env',
      'Bearer sk-rotated',
    ]);
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    // OpenAI's own URL: reasoning models need max_completion_tokens.
    expect(server.requests[0]!.body.max_completion_tokens).toBe(50);
  });

  it('apiKey, headers, organization and name are used', async () => {
    server.reply({ events: chatText('hello') }, { status: 500, json: { error: { message: 'down' } } });
    const provider = openai({
      apiKey: 'sk-explicit',
      baseURL: `${server.origin}/v1`,
      headers: { 'HTTP-Referer': 'https://example.test', 'X-Title': 'agent-core' },
      organization: 'org-123',
      name: 'router',
    });
    expect(provider.name).toBe('router');
    const message = finalMessage(await collectEvents(provider.stream(ask)));
    expect(message.provider).toBe('router');
    expect(finalError(await collectEvents(provider.stream(ask))).provider).toBe('router');
    const headers = server.requests[0]!.headers;
    expect(headers.authorization).toBe('Bearer sk-explicit');
    expect(headers['http-referer']).toBe('https://example.test');
    expect(headers['x-title']).toBe('agent-core');
    expect(headers['openai-organization']).toBe('org-123');
  });

  it('an Ollama / vLLM shaped server: /v1 base path, no key needed, max_tokens', async () => {
    server.reply({
      events: chatText('Hi from llama', 'stop', {
        prompt_tokens: 10,
        completion_tokens: 4,
        total_tokens: 14,
      }),
    });
    const provider = openai({ baseURL: `${server.origin}/v1`, name: 'ollama' });
    const message = finalMessage(
      await collectEvents(provider.stream({ ...ask, model: 'llama3.1:8b', system: 'Be nice.' })),
    );
    expect(message).toMatchObject({
      content: [{ type: 'text', text: 'Hi from llama' }],
      provider: 'ollama',
      model: 'llama3.1:8b',
      usage: { input: 10, output: 4, cacheRead: 0, cacheWrite: 0 },
    });
    expect(message.usage?.cost).toBeUndefined();
    const [request] = server.requests;
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer not-needed');
    expect(request!.body.max_tokens).toBe(50);
    expect(request!.body.messages[0]).toEqual({ role: 'system', content: 'Be nice.' });
  });

  it('building a provider reads nothing and throws nothing', () => {
    expect(() => openai()).not.toThrow();
    expect(openai().name).toBe('openai');
  });
});

describe('openai(): one signal for many calls', () => {
  it('leaves no abort listeners behind on the caller signal, after successes and failures', async () => {
    const controller = new AbortController();
    const provider = openai({ baseURL: `${server.origin}/v1` });
    for (let call = 0; call < 15; call += 1) {
      server.reply(call % 3 === 0 ? { status: 500, json: {} } : { events: chatText('x') });
      await collectEvents(provider.stream(ask, { signal: controller.signal }));
    }
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(server.requests).toHaveLength(15);
  });
});

describe('openai(): countTokens', () => {
  it('the Responses API counts input tokens', async () => {
    server.reply({ json: { object: 'response.input_tokens', input_tokens: 42 } });
    const provider = openai({ apiKey: 'sk', baseURL: `${server.origin}/v1`, api: 'responses' });
    expect(await provider.countTokens!({ ...ask, system: 'Be brief.' })).toBe(42);
    expect(server.requests[0]).toMatchObject({
      path: '/v1/responses/input_tokens',
      body: { model: 'gpt-4o-mini', instructions: 'Be brief.', input: [{ role: 'user', content: 'hi' }] },
    });
  });

  it('failures reject with a ProviderError', async () => {
    server.reply({ status: 401, json: { error: { message: 'bad key' } } });
    const provider = openai({ apiKey: 'sk', baseURL: `${server.origin}/v1`, api: 'responses' });
    const error = await provider.countTokens!(ask).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error) && error.kind).toBe('auth');
  });

  it('Chat Completions has no token counting', () => {
    expect(openai().countTokens).toBeUndefined();
  });
});

describe('registration', () => {
  it('importing the package registers `openai`, and the factory takes options', async () => {
    expect(listProviders()).toContain('openai');
    const provider = getProvider('openai', { name: 'from-registry', baseURL: `${server.origin}/v1` });
    expect(provider.name).toBe('from-registry');
    server.reply({ events: chatText('registered') });
    const message = finalMessage(await collectEvents(provider.stream(ask)));
    expect(message.content).toEqual([{ type: 'text', text: 'registered' }]);
  });

  it('importing the registration twice keeps the first and does not throw', async () => {
    await expect(import('./register.js')).resolves.toBeDefined();
    expect(listProviders().filter((name) => name === 'openai')).toHaveLength(1);
  });
});
