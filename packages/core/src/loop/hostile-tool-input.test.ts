import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type AssistantMessage,
  defineTool,
  historyProblems,
  MemorySessionStore,
  type ModelEvent,
  SessionManager,
  type ToolResultMessage,
} from '../index.js';
import { inlineProvider, textDone } from '../test-support/inline-provider.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { stepAgent } from '../test-support/step-agent.js';

function callWith(input: unknown, id = 'c1'): ModelEvent {
  const message = {
    role: 'assistant',
    content: [{ type: 'toolCall', id, name: 'echo', input }],
    stopReason: 'tool_use',
  } as AssistantMessage;
  return { type: 'done', message };
}

function echoTool() {
  const seen: unknown[] = [];
  const tool = defineTool({
    name: 'echo',
    description: 'echoes',
    parameters: { type: 'object' },
    execute: (input) => {
      seen.push(input);
      return 'ok';
    },
  });
  return { tool, seen };
}

function deep(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 0; level < levels; level++) value = { next: value };
  return value;
}

const resultOf = (messages: readonly unknown[]) =>
  messages.find((message) => (message as { role: string }).role === 'toolResult') as ToolResultMessage;

describe('tool input a model should never have sent', () => {
  it.each([
    ['nested 10,000 levels', deep(10_000), /nested more than 64 levels deep/],
    ['an array', [1, 2], /its input was an array, not a JSON object/],
    ['a string', 'rm -rf /', /its input was a string, not a JSON object/],
    ['null', null, /its input was null, not a JSON object/],
    ['10 MB', { text: 'x'.repeat(10_000_000) }, /holds more than 1,000,000 characters/],
  ])(
    '%s: the call is refused with an error result, the history keeps {} and can be sent again',
    async (_name, input, reason) => {
      const { tool, seen } = echoTool();
      const provider = inlineProvider([[callWith(input)], [textDone('noted')], [textDone('next answer')]]);
      const agent = stepAgent({ provider, tools: [tool] });
      const result = await agent.prompt('go').result();
      expect(result.terminateReason).toBe('completed');
      expect(seen).toEqual([]);
      const refused = resultOf(result.messages);
      expect(refused.isError).toBe(true);
      expect(refused.content).toMatch(reason);
      expect(JSON.stringify(result.messages).length).toBeLessThan(10_000);
      expect(historyProblems(result.messages)).toEqual([]);
      // The next prompt works: one bad reply does not brick the conversation.
      expect((await agent.prompt('again').result()).text).toBe('next answer');
    },
  );

  it('a stored session keeps working after a reply with hostile input', async () => {
    const { tool } = echoTool();
    const store = new MemorySessionStore();
    const manager = (replies: ModelEvent[][]) =>
      new SessionManager({
        store,
        agentOptions: () => ({
          provider: inlineProvider(replies),
          model: 'm',
          tools: [tool],
          orchestrator: stepOrchestrator,
        }),
      });
    const session = await manager([[callWith(deep(10_000))], [textDone('noted')]]).create();
    await session.prompt('go').result();
    const again = await manager([[textDone('fine')]]).get(session.id);
    expect((await again.prompt('again').result()).text).toBe('fine');
  });

  it('__proto__ and constructor keys reach the tool as plain keys and pollute no prototype', async () => {
    const { tool, seen } = echoTool();
    const input = JSON.parse(
      '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"a":1}',
    );
    const agent = stepAgent({
      provider: inlineProvider([[callWith(input)], [textDone('done')]]),
      tools: [tool],
    });
    const store = new MemorySessionStore();
    const session = await new SessionManager({
      store,
      agentOptions: () => ({
        provider: inlineProvider([[callWith(input, 'c2')], [textDone('done')]]),
        model: 'm',
        tools: [tool],
        orchestrator: stepOrchestrator,
      }),
    }).create();
    await agent.prompt('go').result();
    await session.prompt('go').result();
    await store.load(session.id);
    expect(seen).toHaveLength(2);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect((Object.prototype as { polluted?: unknown }).polluted).toBeUndefined();
  });
});

describe('tool output too large for the model', () => {
  const big = defineTool({
    name: 'dump',
    description: 'dumps',
    parameters: z.object({}),
    execute: () => 'y'.repeat(1_000_000),
  });
  const call: ModelEvent = {
    type: 'done',
    message: {
      role: 'assistant',
      content: [{ type: 'toolCall', id: 'd1', name: 'dump', input: {} }],
      stopReason: 'tool_use',
    },
  };

  it('is cut to 100,000 characters by default, with a note that says so', async () => {
    const agent = stepAgent({ provider: inlineProvider([[call], [textDone('ok')]]), tools: [big] });
    const content = resultOf((await agent.prompt('go').result()).messages).content as string;
    expect(content.startsWith('y'.repeat(100_000))).toBe(true);
    expect(content.length).toBeLessThan(100_400);
    expect(content).toMatch(
      /\[Output cut: the tool returned 1,000,000 characters; only the first 100,000 are shown/,
    );
  });

  it('takes its limit from toolResultMaxChars, and refuses a limit that is not a positive integer', async () => {
    const agent = stepAgent({
      provider: inlineProvider([[call], [textDone('ok')]]),
      tools: [big],
      toolResultMaxChars: 10,
    });
    expect(resultOf((await agent.prompt('go').result()).messages).content).toMatch(/^y{10}\n\n\[Output cut/);
    expect(() => new Agent({ provider: inlineProvider([]), model: 'm', toolResultMaxChars: 0 })).toThrow(
      /toolResultMaxChars must be a positive integer/,
    );
  });
});
