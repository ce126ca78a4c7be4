import { collectEvents, finalError } from '@agent-core/core/testing';
import type { ModelRequest } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { openai } from './openai.js';
import { chatChunk, responsesEvent, useFakeOpenAIServer } from './test-support/fake-openai-server.js';

// OpenAI's words for an overloaded server inside a stream that began with HTTP 200: the error
// object's type `service_unavailable_error` and code `server_is_overloaded`.

const server = useFakeOpenAIServer();

const overloaded = {
  type: 'service_unavailable_error',
  code: 'server_is_overloaded',
  message: 'Our servers are currently overloaded. Please try again later.',
  param: null,
};
const ask: ModelRequest = { model: 'gpt-4.1-mini', messages: [{ role: 'user', content: 'Hi' }] };
const created = responsesEvent({
  type: 'response.created',
  response: { id: 'resp_1', object: 'response', status: 'in_progress', output: [] },
  sequence_number: 0,
});

describe('an overloaded server inside a stream is overloaded, retryable', () => {
  it('chat: a data chunk holding the error', async () => {
    server.reply({
      events: [
        chatChunk({ role: 'assistant', content: '' }),
        `data: ${JSON.stringify({ error: overloaded })}\n\n`,
      ],
    });
    const provider = openai({ apiKey: 'sk-test', baseURL: `${server.origin}/v1` });
    const error = finalError(await collectEvents(provider.stream(ask)));
    expect(error).toMatchObject({ kind: 'overloaded', retryable: true });
  });

  it('responses: an error event', async () => {
    server.reply({
      events: [created, responsesEvent({ type: 'error', sequence_number: 1, error: overloaded })],
    });
    const provider = openai({ apiKey: 'sk-test', baseURL: `${server.origin}/v1`, api: 'responses' });
    const error = finalError(await collectEvents(provider.stream(ask)));
    expect(error).toMatchObject({ kind: 'overloaded', retryable: true });
  });

  it('responses: response.failed', async () => {
    const failed = responsesEvent({
      type: 'response.failed',
      sequence_number: 1,
      response: {
        id: 'resp_1',
        object: 'response',
        status: 'failed',
        output: [],
        error: { code: 'server_is_overloaded', message: overloaded.message },
      },
    });
    server.reply({ events: [created, failed] });
    const provider = openai({ apiKey: 'sk-test', baseURL: `${server.origin}/v1`, api: 'responses' });
    const error = finalError(await collectEvents(provider.stream(ask)));
    expect(error).toMatchObject({ kind: 'overloaded', retryable: true });
    expect(error.message).toContain('server_is_overloaded');
  });
});
