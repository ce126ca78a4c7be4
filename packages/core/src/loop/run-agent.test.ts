import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AssistantMessage, defineTool, type ModelEvent } from '../index.js';
import { inlineProvider, textDone } from '../test-support/inline-provider.js';
import { stepAgent } from '../test-support/step-agent.js';

function toolWithUsage(input: number): ModelEvent {
  const message: AssistantMessage = {
    role: 'assistant',
    content: [{ type: 'toolCall', id: `c${input}`, name: 'wait', input: {} }],
    stopReason: 'tool_use',
    usage: { input, output: 10, cacheRead: 0, cacheWrite: 0 },
  };
  return { type: 'done', message };
}

const wait = defineTool({
  name: 'wait',
  description: 'waits a moment',
  parameters: z.object({}),
  execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('waited'), 3)),
});

describe('how a run ends', () => {
  it('a spent token budget ends with max_tokens and a text that explains it', async () => {
    const agent = stepAgent({
      provider: inlineProvider([[toolWithUsage(150)], [textDone('never')]]),
      tools: [wait],
      limits: { maxTokens: 100 },
    });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('max_tokens');
    expect(result.text).toBe(
      "Stopped after using 160 tokens of the run's budget of 100 (limits.maxTokens). The history is kept: prompt again to continue, or raise the limit.",
    );
  });

  it('durations are rounded to a tenth of a millisecond', async () => {
    const agent = stepAgent({
      provider: inlineProvider([[toolWithUsage(1)], [textDone('done')]]),
      tools: [wait],
    });
    const result = await agent.prompt('go').result();
    const durations = [result.durationMs, ...result.toolCalls.map((call) => call.durationMs)];
    for (const duration of durations) expect(String(duration)).toMatch(/^\d+(\.\d)?$/);
  });
});
