import { stepOrchestrator } from '@agent-core/core/testing';
import { Agent, ContextWindow } from '@agent-core/core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSdk } from './load-sdk.js';
import { openai } from './openai.js';
import {
  chatText,
  type RecordedRequest,
  responsesEvent,
  type ScriptedReply,
  useFakeOpenAIServer,
} from './test-support/fake-openai-server.js';
import { promptTurns } from '@agent-core/test-support/agent-events';

// A server whose context is smaller than the agent's budget: it refuses any request over `limit`
// of its own tokens (a token every three characters of the messages' JSON) in a real server's
// words. The agent's window must learn from the first refusal and compact before later turns.

const limit = 1_500;

const server = useFakeOpenAIServer();
beforeAll(async () => {
  await loadSdk();
});
beforeEach(() => {
  server.replyWith(undefined);
});

function tokensOf(request: RecordedRequest): number {
  return Math.ceil(JSON.stringify(request.body.messages ?? request.body.input).length / 3);
}

interface Backend {
  name: string;
  api: 'chat' | 'responses';
  refusal(tokens: number): ScriptedReply;
  answer(tokens: number): ScriptedReply;
}

const chatAnswer = (tokens: number): ScriptedReply => ({
  events: chatText('Noted.', 'stop', {
    prompt_tokens: tokens,
    completion_tokens: 2,
    total_tokens: tokens + 2,
  }),
});

const backends: Backend[] = [
  {
    name: 'OpenAI Chat Completions',
    api: 'chat',
    refusal: (tokens) => ({
      status: 400,
      json: {
        error: {
          message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
    }),
    answer: chatAnswer,
  },
  {
    name: 'llama.cpp chat',
    api: 'chat',
    refusal: (tokens) => ({
      status: 400,
      json: {
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
          n_prompt_tokens: tokens,
          n_ctx: limit,
        },
      },
    }),
    answer: chatAnswer,
  },
  {
    name: 'OpenAI Responses (names no limit)',
    api: 'responses',
    refusal: () => ({
      status: 400,
      json: {
        error: {
          message:
            'Your input exceeds the context window of this model. Please adjust your input and try again.',
          type: 'invalid_request_error',
          param: 'input',
          code: 'context_length_exceeded',
        },
      },
    }),
    answer: (tokens) => ({
      events: [
        responsesEvent({
          type: 'response.output_text.delta',
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          delta: 'Noted.',
        }),
        responsesEvent({
          type: 'response.completed',
          response: {
            id: 'resp_1',
            status: 'completed',
            output: [],
            usage: { input_tokens: tokens, output_tokens: 2, total_tokens: tokens + 2 },
          },
        }),
      ],
    }),
  },
];

describe.each(backends)('a context window on $name learns the real context', (backend) => {
  it('the first overflow costs one refused request; later turns compact before sending', async () => {
    const refused: number[] = [];
    server.replyWith((request) => {
      const tokens = tokensOf(request);
      if (tokens <= limit) return backend.answer(tokens);
      refused.push(server.requests.length - 1);
      return backend.refusal(tokens);
    });
    const window = new ContextWindow({ budgetTokens: 100_000 });
    const agent = new Agent({
      provider: openai({ baseURL: `${server.origin}/v1`, api: backend.api, name: 'local' }),
      model: 'local-model',
      orchestrator: stepOrchestrator,
      contextWindow: window,
    });
    const turns = 14;
    const events = await promptTurns(
      agent,
      turns,
      (turn) => `Turn ${turn}: ${'remember this line. '.repeat(30)}`,
    );

    expect(refused).toHaveLength(1);
    expect(server.requests).toHaveLength(turns + 1);
    const reasons = events.flatMap((event) => (event.type === 'compaction' ? [event.reason] : []));
    expect(reasons[0]).toBe('overflow');
    expect(reasons.length).toBeGreaterThan(1);
    expect(reasons.slice(1).every((reason) => reason === 'budget')).toBe(true);
    expect(window.learnedBudget('local', 'local-model')).toBeLessThan(limit);
  });
});
