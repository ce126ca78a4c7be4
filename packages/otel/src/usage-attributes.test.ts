import { Agent } from '@agent-core/core';
import { mock } from '@agent-core/provider-mock';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterEach, describe, expect, it } from 'vitest';
import { instrument } from './instrument.js';
import { stepOrchestrator } from '@agent-core/core/testing';

const exporter = new InMemorySpanExporter();
const tracer = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer(
  'test',
);
afterEach(() => exporter.reset());

function attributesOf(name: string) {
  return exporter
    .getFinishedSpans()
    .filter((span) => span.name === name)
    .map((span) => span.attributes);
}

describe('usage on spans', () => {
  it('input tokens are the whole prompt, cached tokens included, on chat spans and the run span', async () => {
    // Core's usage counts the uncached input apart from cache reads and writes, as the providers report it.
    const agent = new Agent({
      provider: mock({
        turns: [
          { text: 'first', usage: { input: 1, output: 12, cacheRead: 303, cacheWrite: 0 } },
          { text: 'second', usage: { input: 5, output: 3, cacheRead: 0, cacheWrite: 200 } },
        ],
      }),
      model: 'mock',
      orchestrator: stepOrchestrator,
    });
    instrument(agent, { tracer, agentName: 'cached' });
    const first = await agent.prompt('one').result();
    const second = await agent.prompt('two').result();

    const chats = attributesOf('chat mock');
    expect(chats).toHaveLength(2);
    expect(chats[0]).toMatchObject({
      'gen_ai.usage.input_tokens': 304,
      'gen_ai.usage.cache_read.input_tokens': 303,
      'gen_ai.usage.output_tokens': 12,
    });
    expect(chats[0]).not.toHaveProperty('gen_ai.usage.cache_creation.input_tokens');
    expect(chats[1]).toMatchObject({
      'gen_ai.usage.input_tokens': 205,
      'gen_ai.usage.cache_creation.input_tokens': 200,
      'gen_ai.usage.output_tokens': 3,
    });

    const runs = attributesOf('invoke_agent cached');
    expect(runs).toMatchObject([
      {
        'gen_ai.usage.input_tokens': 304,
        'gen_ai.usage.cache_read.input_tokens': 303,
        'gen_ai.usage.output_tokens': 12,
      },
      {
        'gen_ai.usage.input_tokens': 205,
        'gen_ai.usage.cache_creation.input_tokens': 200,
        'gen_ai.usage.output_tokens': 3,
      },
    ]);
    // The run's metrics count the same tokens: their input is the uncached part, their total everything.
    for (const [index, result] of [first, second].entries()) {
      const tokens = result.metrics.tokens;
      expect(tokens.input + tokens.cacheRead + tokens.cacheWrite).toBe(
        runs[index]?.['gen_ai.usage.input_tokens'],
      );
      expect(tokens.total).toBe(tokens.input + tokens.cacheRead + tokens.cacheWrite + tokens.output);
    }
  });

  it('a usage without cached tokens reports its input as is, and no cache attributes', async () => {
    const agent = new Agent({
      provider: mock({ turns: [{ text: 'hi', usage: { input: 42, output: 2 } }] }),
      model: 'mock',
      orchestrator: stepOrchestrator,
    });
    instrument(agent, { tracer });
    await agent.prompt('hello').result();
    for (const attributes of [...attributesOf('chat mock'), ...attributesOf('invoke_agent')]) {
      expect(attributes['gen_ai.usage.input_tokens']).toBe(42);
      expect(attributes).not.toHaveProperty('gen_ai.usage.cache_read.input_tokens');
      expect(attributes).not.toHaveProperty('gen_ai.usage.cache_creation.input_tokens');
    }
  });
});
