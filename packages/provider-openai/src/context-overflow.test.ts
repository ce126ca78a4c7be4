import { collectEvents, finalError } from '@agent-core/core/testing';
import { readFileSync } from 'node:fs';
import type { ModelRequest } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { openai } from './openai.js';
import { responsesEvent, useFakeOpenAIServer } from './test-support/fake-openai-server.js';

// Recorded error bodies of OpenAI and compatible servers for a prompt longer than the context window.
function body(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./__fixtures__/${name}.error.json`, import.meta.url), 'utf8'));
}

const server = useFakeOpenAIServer();

const ask: ModelRequest = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] };

function provider(api: 'chat' | 'responses') {
  return openai({ apiKey: 'sk-test', baseURL: `${server.origin}/v1`, api });
}

describe('context overflow', () => {
  it.each([
    [
      'chat',
      'chat-context-length-exceeded',
      'maximum context length is 128000',
      { contextLimit: 128000, promptTokens: 130412, reservedOutputTokens: undefined },
    ],
    [
      'chat',
      'vllm-maximum-context-length',
      'maximum context length is 4096',
      { contextLimit: 4096, promptTokens: 4096, reservedOutputTokens: 1024 },
    ],
    [
      'chat',
      'llamacpp-exceed-context-size',
      'exceeds the available context size',
      // llama.cpp states its figures as fields of the error body.
      { contextLimit: 4096, promptTokens: 5120, reservedOutputTokens: undefined },
    ],
    [
      'responses',
      'responses-context-length-exceeded',
      'exceeds the context window',
      { contextLimit: undefined, promptTokens: undefined, reservedOutputTokens: undefined },
    ],
  ] as const)(
    '%s: HTTP 400 %s is a context_overflow with its figures, not retried',
    async (api, name, text, figures) => {
      server.reply({ status: 400, json: body(name) });
      const error = finalError(await collectEvents(provider(api).stream(ask)));
      expect(error).toMatchObject({
        kind: 'context_overflow',
        retryable: false,
        status: 400,
        provider: 'openai',
        ...figures,
      });
      expect(error.message).toContain(text);
      expect(error.message).toContain('contextWindow');
      expect(server.requests).toHaveLength(1);
    },
  );

  it('chat: llama.cpp figures in an error object after HTTP 200 are kept too', async () => {
    server.reply({
      events: [
        'data: {"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":8192}}\n\n',
      ],
    });
    expect(finalError(await collectEvents(provider('chat').stream(ask)))).toMatchObject({
      kind: 'context_overflow',
      contextLimit: 8192,
      promptTokens: 9000,
    });
  });

  it('chat: an in-stream context_length_exceeded error is a context_overflow', async () => {
    server.reply({
      events: [
        'data: {"error":{"message":"context too long","type":"invalid_request_error","code":"context_length_exceeded"}}\n\n',
      ],
    });
    expect(finalError(await collectEvents(provider('chat').stream(ask)))).toMatchObject({
      kind: 'context_overflow',
      retryable: false,
    });
  });

  it('responses: response.failed with context_length_exceeded is a context_overflow', async () => {
    server.reply({
      events: [
        responsesEvent({
          type: 'response.failed',
          response: {
            id: 'resp_1',
            object: 'response',
            status: 'failed',
            output: [],
            usage: null,
            error: {
              code: 'context_length_exceeded',
              message: 'Your input exceeds the context window of this model.',
            },
          },
        }),
      ],
    });
    expect(finalError(await collectEvents(provider('responses').stream(ask)))).toMatchObject({
      kind: 'context_overflow',
      retryable: false,
    });
  });

  it('a 429 about tokens per minute stays a rate limit', async () => {
    server.reply({
      status: 429,
      json: {
        error: {
          message: 'Rate limit reached: too many tokens per min (TPM). Limit 30000.',
          type: 'tokens',
          code: 'rate_limit_exceeded',
        },
      },
    });
    expect(finalError(await collectEvents(provider('chat').stream(ask)))).toMatchObject({
      kind: 'rate_limit',
      retryable: true,
    });
  });
});
