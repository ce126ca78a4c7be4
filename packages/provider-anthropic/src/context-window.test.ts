import { stepOrchestrator } from '@agent-core/core/testing';
import { messageEnd, messageStart, textBlock } from '@agent-core/test-support';
import { Agent, ContextWindow } from '@agent-core/core';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { anthropic } from './anthropic.js';
import { loadSdk } from './load-sdk.js';
import {
  errorBody,
  type RecordedRequest,
  type Reply,
  useAnthropicServer,
} from './test-support/anthropic-server.js';
import { promptTurns } from '@agent-core/test-support/agent-events';

// A server whose context is smaller than the agent's budget (llama.cpp's Anthropic-compatible
// endpoint, or a model with a smaller window): it refuses any request over `limit` of its own
// tokens (a token every three characters of the messages' JSON) in a real server's words. The
// agent's window must learn from the first refusal and compact before later turns.

const limit = 1_500;
const server = useAnthropicServer({ quietSdk: true });
beforeAll(async () => {
  await loadSdk();
});
beforeEach(() => {
  server.replyWith(undefined);
});

function tokensOf(request: RecordedRequest): number {
  return Math.ceil(JSON.stringify(request.body.messages).length / 3);
}

const backends: { name: string; maxOutputTokens?: number; refusal(tokens: number): Reply }[] = [
  {
    name: 'Anthropic: prompt is too long',
    refusal: (tokens) => ({
      type: 'json',
      status: 400,
      body: errorBody('invalid_request_error', `prompt is too long: ${tokens} tokens > ${limit} maximum`),
    }),
  },
  {
    name: 'Anthropic: input length and max_tokens exceed context limit',
    maxOutputTokens: 200,
    refusal: (tokens) => ({
      type: 'json',
      status: 400,
      body: errorBody(
        'invalid_request_error',
        `input length and \`max_tokens\` exceed context limit: ${tokens} + 200 > ${limit + 200}, decrease input length or \`max_tokens\` and try again`,
      ),
    }),
  },
  {
    name: 'llama.cpp',
    refusal: (tokens) => ({
      type: 'json',
      status: 400,
      body: {
        error: {
          code: 400,
          message: 'the request exceeds the available context size, try increasing it',
          type: 'exceed_context_size_error',
          n_prompt_tokens: tokens,
          n_ctx: limit,
        },
      },
    }),
  },
];

describe.each(backends)('a context window on a smaller server ($name) learns its context', (backend) => {
  it('the first overflow costs one refused request; later turns compact before sending', async () => {
    // What the server saw: the size of each request, in its own tokens, and whether it refused it.
    const seen: { tokens: number; refused: boolean }[] = [];
    server.replyWith((request) => {
      const tokens = tokensOf(request);
      seen.push({ tokens, refused: tokens > limit });
      if (tokens > limit) return backend.refusal(tokens);
      return {
        type: 'sse',
        body:
          messageStart('local-model', { input_tokens: tokens, output_tokens: 1 }) +
          textBlock(0, ['Noted.']) +
          messageEnd('end_turn'),
      };
    });
    const window = new ContextWindow({ budgetTokens: 100_000 });
    const agent = new Agent({
      provider: anthropic({ apiKey: 'sk-ant-test', baseURL: server.url, name: 'local' }),
      model: 'local-model',
      orchestrator: stepOrchestrator,
      contextWindow: window,
      ...(backend.maxOutputTokens === undefined ? {} : { maxOutputTokens: backend.maxOutputTokens }),
    });
    const turns = 14;
    const events = await promptTurns(
      agent,
      turns,
      (turn) => `Turn ${turn}: ${'remember this line. '.repeat(30)}`,
    );

    expect(seen.filter((request) => request.refused)).toHaveLength(1);
    expect(seen).toHaveLength(turns + 1);
    const reasons = events.flatMap((event) => (event.type === 'compaction' ? [event.reason] : []));
    expect(reasons[0]).toBe('overflow');
    expect(reasons.length).toBeGreaterThan(1);
    expect(reasons.slice(1).every((reason) => reason === 'budget')).toBe(true);
    expect(window.learnedBudget('local', 'local-model')).toBeLessThan(limit);
  });
});
