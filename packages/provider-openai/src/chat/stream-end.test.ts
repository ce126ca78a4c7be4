import { collectEvents, finalError, finalMessage } from '@agent-core/core/testing';
import type { ModelRequest } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { openai } from '../openai.js';
import { chatChunk, chatDone, useFakeOpenAIServer } from '../test-support/fake-openai-server.js';

// Once the model has finished (finish_reason) only usage and `[DONE]` are left to come: what the
// connection does then (a reset, a proxy holding it open) must not cost the answer.

const server = useFakeOpenAIServer();

const provider = () => openai({ apiKey: 'sk-test', baseURL: `${server.origin}/v1` });
const ask: ModelRequest = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] };
const usage = { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 };
const usageChunk = `data: ${JSON.stringify({ id: 'chatcmpl-test', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o-mini', choices: [], usage })}\n\n`;
const answer = [chatChunk({ role: 'assistant', content: 'Hello!' }), chatChunk({}, 'stop')];

describe('chat: the end of a stream', () => {
  it('keeps the whole answer when the connection drops after [DONE]', async () => {
    server.reply({ events: [...answer, usageChunk, chatDone], drop: true });
    const message = finalMessage(await collectEvents(provider().stream(ask)));
    expect(message).toMatchObject({ content: [{ type: 'text', text: 'Hello!' }], stopReason: 'end_turn' });
    expect(message.usage).toMatchObject({ input: 9, output: 3 });
  });

  it('keeps the answer, without usage, when the connection drops between finish_reason and the usage chunk', async () => {
    server.reply({ events: answer, drop: true });
    const message = finalMessage(await collectEvents(provider().stream(ask)));
    expect(message).toMatchObject({ content: [{ type: 'text', text: 'Hello!' }], stopReason: 'end_turn' });
    expect(message.usage).toBeUndefined();
  });

  it('ends after the usage chunk when the server holds the connection open after it', async () => {
    server.reply({ events: [...answer, usageChunk, chatDone], hang: true });
    const closed = server.waitForClientClose();
    const message = finalMessage(await collectEvents(provider().stream(ask)));
    expect(message.content).toEqual([{ type: 'text', text: 'Hello!' }]);
    // The provider closed the connection rather than leave it open.
    await closed;
  }, 10_000); // Without the fix the stream waits for a connection that never ends: fail in seconds, not 30.

  it('still reports a connection dropped before finish_reason as a retryable network error', async () => {
    server.reply({ events: [chatChunk({ role: 'assistant', content: 'Hel' })], drop: true });
    const error = finalError(await collectEvents(provider().stream(ask)));
    expect(error).toMatchObject({ kind: 'network', retryable: true });
  });
});
