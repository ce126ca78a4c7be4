import { Agent, type AgentEvent, defineTool } from '@agent-core/core';
import { type MockTurn, mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentic } from './index.js';
import { calculator } from './test-support/calculator.js';
import { expectValidHistory } from './test-support/history.js';

const slowAdd = defineTool({
  name: 'slow_add',
  description: 'adds, asynchronously',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => {
    await new Promise((resolve) => setImmediate(resolve));
    return String(a + b);
  },
});

const script: MockTurn[] = [
  {
    thinking: 'I should add things up.',
    text: 'Let me compute.',
    toolCalls: [
      { name: 'calculator', input: { expression: '15*3' } },
      { name: 'slow_add', input: { a: 10, b: 5 } },
    ],
  },
  { text: 'The answers are 45 and 15.' },
];

function scriptedAgent(toolExecution: 'sequential' | 'parallel') {
  // The follow-up prompt is answered with plain text, so it makes exactly one model call after any abort.
  const provider = mock({
    turns: (request, call) =>
      (request.messages.at(-1) as { content?: unknown })?.content === 'once more'
        ? { text: 'again' }
        : (script[call] as MockTurn),
    chunkSize: 5,
  });
  const agent = new Agent({
    provider,
    model: 'm',
    tools: [calculator, slowAdd],
    orchestrator: agentic({ toolExecution }),
  });
  return { agent, provider };
}

async function countEvents(toolExecution: 'sequential' | 'parallel'): Promise<AgentEvent[]> {
  const { agent } = scriptedAgent(toolExecution);
  const events: AgentEvent[] = [];
  agent.subscribe((event) => events.push(event));
  const result = await agent.prompt('compute').result();
  expect(result.terminateReason).toBe('completed');
  return events;
}

describe.each(['sequential', 'parallel'] as const)('abort at every event position (%s)', (toolExecution) => {
  it('settles aborted with a valid history, and the agent takes a new prompt', async () => {
    const reference = await countEvents(toolExecution);
    const positions = reference.length - 1; // every event before agent_end
    expect(positions).toBeGreaterThan(15);
    for (let position = 0; position < positions; position++) {
      const { agent, provider } = scriptedAgent(toolExecution);
      let seen = 0;
      const types: string[] = [];
      const unsubscribe = agent.subscribe((event) => {
        types.push(event.type);
        if (seen++ === position) agent.abort();
      });
      const result = await agent.prompt('compute').result();
      unsubscribe();
      const where = `abort at ${position} (${reference[position]?.type})`;
      expect(result.terminateReason, where).toBe('aborted');
      expect(types.at(-1), where).toBe('agent_end');
      expectValidHistory(result.messages);
      const callsAfterAbort = provider.calls;

      const next = await agent.prompt('once more').result();
      expect(next.terminateReason, where).toBe('completed');
      expect(provider.calls, where).toBe(callsAfterAbort + 1);
      expectValidHistory(provider.requests.at(-1)?.messages ?? []);
      expect(provider.requests.at(-1)?.messages.at(-1), where).toEqual({
        role: 'user',
        content: 'once more',
      });
    }
  });
});

describe('abort', () => {
  it('an already-aborted signal ends the run before any model call', async () => {
    const provider = mock({ turns: [{ text: 'never' }] });
    const agent = new Agent({ provider, model: 'm', orchestrator: agentic() });
    const result = await agent.prompt('hi', { signal: AbortSignal.abort() }).result();
    expect(result.terminateReason).toBe('aborted');
    expect(provider.calls).toBe(0);
    expect(result.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });

  it('ends promptly when a tool ignores its signal, and answers the call', async () => {
    const stuck = defineTool({
      name: 'stuck',
      description: 'never returns',
      parameters: z.object({}),
      execute: () => new Promise<string>(() => {}),
    });
    const provider = mock({ turns: [{ toolCalls: [{ name: 'stuck' }, { name: 'stuck' }] }] });
    const agent = new Agent({ provider, model: 'm', tools: [stuck], orchestrator: agentic() });
    agent.subscribe((event) => {
      if (event.type === 'tool_call_start') setImmediate(() => agent.abort());
    });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('aborted');
    expect(provider.calls).toBe(1);
    expectValidHistory(result.messages);
    expect(result.toolCalls.map((call) => call.result)).toEqual([
      "Tool 'stuck' was stopped: the run was aborted.",
      'Tool call not run: the run was aborted first.',
    ]);
  });

  it('stops a hanging model stream and makes no further model call', async () => {
    const provider = mock({ turns: [{ hang: true }, { text: 'later' }] });
    const agent = new Agent({ provider, model: 'm', orchestrator: agentic() });
    const run = agent.prompt('hi');
    setImmediate(() => run.abort());
    const result = await run.result();
    expect(result.terminateReason).toBe('aborted');
    expect(provider.calls).toBe(1);
  });

  it('keeps the text streamed before an abort, without its tool calls', async () => {
    const provider = mock({
      turns: [{ text: 'abcdefghij', toolCalls: [{ name: 'calculator', input: { expression: '1+1' } }] }],
      chunkSize: 2,
    });
    const agent = new Agent({ provider, model: 'm', tools: [calculator], orchestrator: agentic() });
    let deltas = 0;
    agent.subscribe((event) => {
      if (event.type === 'text_delta' && ++deltas === 2) agent.abort();
    });
    const result = await agent.prompt('hi').result();
    expect(result.terminateReason).toBe('aborted');
    expect(result.messages.at(-1)).toMatchObject({
      role: 'assistant',
      stopReason: 'aborted',
      content: [{ type: 'text', text: 'abcd' }],
    });
    expectValidHistory(result.messages);
  });

  it('a listener that throws does not break the run', async () => {
    const agent = new Agent({
      provider: mock({ turns: [{ text: 'fine' }] }),
      model: 'm',
      orchestrator: agentic(),
    });
    agent.subscribe(() => {
      throw new Error('listener bug');
    });
    expect((await agent.prompt('hi').result()).text).toBe('fine');
  });
});
