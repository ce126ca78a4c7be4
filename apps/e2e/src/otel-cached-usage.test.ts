import { Agent, type Provider } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { instrument } from '@agent-core/otel';
import { anthropic } from '@agent-core/provider-anthropic';
import { openai } from '@agent-core/provider-openai';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import {
  anthropicReply,
  chatReply,
  closeServersAfterEach,
  type SseFrame,
  startScriptedSseServer,
} from './test-support/scripted-sse-server.js';

// A prompt of 304 tokens of which 303 come from the prompt cache, as each API reports it, through
// the real SDK, the provider and the OpenTelemetry adapter: the spans' input tokens are the whole
// prompt (the GenAI conventions' meaning), the cache attributes parts of it.

const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
  'e2e',
);
const closeAfterTest = closeServersAfterEach();
afterEach(() => {
  exporter.reset();
});

/** Anthropic counts the uncached input apart: `input_tokens` beside the cache reads and writes. */
function anthropicWithCache(usage: Record<string, number>): SseFrame[] {
  const frames = anthropicReply({ text: 'Cached.' });
  const start = frames[0]?.data as { message: { usage: unknown } };
  start.message.usage = { ...usage, output_tokens: 1 };
  return frames;
}

/** OpenAI counts the cached tokens inside `prompt_tokens`. */
function chatWithCache(prompt: number, cached: number): SseFrame[] {
  const frames = chatReply({ text: 'Cached.' });
  const last = frames.at(-1)?.data as { usage: unknown };
  last.usage = {
    prompt_tokens: prompt,
    completion_tokens: 12,
    total_tokens: prompt + 12,
    prompt_tokens_details: { cached_tokens: cached },
  };
  return frames;
}

const cases: {
  name: string;
  frames: SseFrame[];
  basePath: string;
  done: boolean;
  provider: (url: string) => Provider;
  cacheRead: number;
  cacheWrite: number;
}[] = [
  {
    name: 'Anthropic cache read',
    frames: anthropicWithCache({
      input_tokens: 1,
      cache_read_input_tokens: 303,
      cache_creation_input_tokens: 0,
    }),
    basePath: '',
    done: false,
    provider: (url) => anthropic({ baseURL: url, apiKey: 'test' }),
    cacheRead: 303,
    cacheWrite: 0,
  },
  {
    name: 'Anthropic cache write',
    frames: anthropicWithCache({
      input_tokens: 4,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 300,
    }),
    basePath: '',
    done: false,
    provider: (url) => anthropic({ baseURL: url, apiKey: 'test' }),
    cacheRead: 0,
    cacheWrite: 300,
  },
  {
    name: 'OpenAI Chat Completions cached tokens',
    frames: chatWithCache(304, 303),
    basePath: '/v1',
    done: true,
    provider: (url) => openai({ baseURL: url, apiKey: 'test' }),
    cacheRead: 303,
    cacheWrite: 0,
  },
];

describe.each(cases)('usage with a prompt cache: $name', (backend) => {
  it('the chat span and the run span say 304 input tokens, the cache tokens as parts of them', async () => {
    const server = await startScriptedSseServer([backend.frames], {
      basePath: backend.basePath,
      done: backend.done,
    });
    closeAfterTest(server);
    const agent = new Agent({
      provider: backend.provider(server.url),
      model: 'model-under-test',
      orchestrator: agentic(),
    });
    instrument(agent, { tracer, agentName: 'cached' });
    const result = await agent.prompt('Hello again').result();
    expect(result.terminateReason).toBe('completed');

    const spans = exporter.getFinishedSpans();
    const chat = spans.find((span) => span.name === 'chat model-under-test')?.attributes;
    const run = spans.find((span) => span.name === 'invoke_agent cached')?.attributes;
    for (const attributes of [chat, run]) {
      expect(attributes?.['gen_ai.usage.input_tokens']).toBe(304);
      expect(attributes?.['gen_ai.usage.cache_read.input_tokens']).toBe(
        backend.cacheRead > 0 ? backend.cacheRead : undefined,
      );
      expect(attributes?.['gen_ai.usage.cache_creation.input_tokens']).toBe(
        backend.cacheWrite > 0 ? backend.cacheWrite : undefined,
      );
    }
    // Core's usage and metrics keep the parts apart: `input` is the uncached part.
    expect(result.usage).toMatchObject({
      input: 304 - backend.cacheRead - backend.cacheWrite,
      cacheRead: backend.cacheRead,
      cacheWrite: backend.cacheWrite,
    });
    const tokens = result.metrics.tokens;
    expect(tokens.input + tokens.cacheRead + tokens.cacheWrite).toBe(304);
  });
});
