import {
  Agent,
  type AgentEvent,
  type AgentMessage,
  type AgentOptions,
  type AgentResult,
  defineTool,
  type ModelRequest,
  type Orchestrator,
  type UserMessage,
} from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { planExecute } from '@agent-core/orchestrator-plan-execute';
import { react } from '@agent-core/orchestrator-react';
import { type MockTurn, mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { calculator } from './test-support/calculator.js';
import { expectValidHistory } from './test-support/history.js';

// One suite of loop invariants, run against every orchestrator. Each adapter scripts the same
// scenario in its own protocol: the user asks to compute, the agent calls calculator(15*3) and
// slow_add(10, 5), then answers.

const slowAdd = defineTool({
  name: 'slow_add',
  description: 'adds, asynchronously',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: async ({ a, b }) => {
    await new Promise((resolve) => setImmediate(resolve));
    return String(a + b);
  },
});

interface Adapter {
  name: string;
  orchestrator(): Orchestrator;
  /** The scenario, one reply per model call. */
  script: MockTurn[];
  /** A reply that ends a request at once: for calls past the script and for the prompt after an abort. */
  fallback(request: ModelRequest): MockTurn;
  /** Model calls the prompt after an abort makes. */
  callsToAnswer: number;
}

function lastText(request: ModelRequest): string {
  const content = (request.messages.at(-1) as UserMessage | undefined)?.content;
  return typeof content === 'string' ? content : '';
}

const reactAction = (thought: string, tool: string, input: object) =>
  `Thought: ${thought}\nAction: ${tool}\nAction Input: ${JSON.stringify(input)}`;

const plan = (...titles: string[]): MockTurn => ({
  text: JSON.stringify({ steps: titles.map((title) => ({ title, instruction: `Do: ${title}` })) }),
});

const adapters: Adapter[] = [
  {
    name: 'agentic',
    orchestrator: () => agentic(),
    script: [
      {
        thinking: 'I should compute both.',
        text: 'Let me compute.',
        toolCalls: [
          { name: 'calculator', input: { expression: '15*3' } },
          { name: 'slow_add', input: { a: 10, b: 5 } },
        ],
      },
      { text: 'The answers are 45 and 15.' },
    ],
    fallback: () => ({ text: 'again' }),
    callsToAnswer: 1,
  },
  {
    name: 'react',
    orchestrator: () => react(),
    script: [
      { text: reactAction('Multiply first.', 'calculator', { expression: '15*3' }) },
      { text: reactAction('Then add.', 'slow_add', { a: 10, b: 5 }) },
      { text: 'Thought: Both known.\nFinal Answer: The answers are 45 and 15.' },
    ],
    fallback: () => ({ text: 'Thought: easy\nFinal Answer: again' }),
    callsToAnswer: 1,
  },
  {
    name: 'plan-execute',
    orchestrator: () => planExecute(),
    script: [
      plan('compute', 'answer'),
      {
        toolCalls: [
          { name: 'calculator', input: { expression: '15*3' } },
          { name: 'slow_add', input: { a: 10, b: 5 } },
        ],
      },
      { text: '45 and 15' },
      { text: 'answered' },
      { text: 'The answers are 45 and 15.' },
    ],
    fallback: (request) =>
      /^Before doing anything|Write a new plan/m.test(lastText(request))
        ? plan('wrap up')
        : { text: 'again' },
    callsToAnswer: 3,
  },
];

function scriptedAgent(adapter: Adapter, options: Partial<AgentOptions> = {}) {
  const provider = mock({
    turns: (request, call) => {
      const afterAbort = request.messages.some((message) => (message as UserMessage).content === 'once more');
      return afterAbort ? adapter.fallback(request) : (adapter.script[call] ?? adapter.fallback(request));
    },
    chunkSize: 5,
  });
  const agent = new Agent({
    provider,
    model: 'm',
    tools: [calculator, slowAdd],
    orchestrator: adapter.orchestrator(),
    ...options,
  });
  return { agent, provider };
}

async function referenceEvents(adapter: Adapter, options: Partial<AgentOptions> = {}): Promise<AgentEvent[]> {
  const { agent } = scriptedAgent(adapter, options);
  const events: AgentEvent[] = [];
  agent.subscribe((event) => events.push(event));
  const result = await agent.prompt('compute').result();
  expect(result.terminateReason).toBe('completed');
  expect(result.toolCalls.map((call) => [call.name, call.result])).toEqual([
    ['calculator', '45'],
    ['slow_add', '15'],
  ]);
  return events;
}

function expectEveryCallAnswered(result: AgentResult): void {
  expectValidHistory(result.messages);
  const ids = result.toolCalls.map((call) => call.id);
  expect(new Set(ids).size).toBe(ids.length);
}

/** How many places hold this exact message: the history and both queues. */
function placesOf(agent: Agent, message: AgentMessage): number {
  const everywhere = [...agent.messages, ...agent.queued.steering, ...agent.queued.followUp];
  return everywhere.filter((candidate) => candidate === message).length;
}

describe.each(adapters)('loop invariants: $name', (adapter) => {
  it('abort at every event position: aborted, valid history, and a new prompt works with a valid history', async () => {
    const reference = await referenceEvents(adapter);
    const positions = reference.length - 1; // every event before agent_end
    expect(positions).toBeGreaterThan(15);
    for (let position = 0; position < positions; position++) {
      const { agent, provider } = scriptedAgent(adapter);
      let seen = 0;
      const types: string[] = [];
      const unsubscribe = agent.subscribe((event) => {
        types.push(event.type);
        if (seen++ === position) agent.abort();
      });
      const result = await agent.prompt('compute').result();
      unsubscribe();
      const where = `${adapter.name}: abort at ${position} (${reference[position]?.type})`;
      expect(result.terminateReason, where).toBe('aborted');
      expect(types.at(-1), where).toBe('agent_end');
      expectEveryCallAnswered(result);
      const callsBefore = provider.calls;

      const next = await agent.prompt('once more').result();
      expect(next.terminateReason, where).toBe('completed');
      expect(provider.calls, where).toBe(callsBefore + adapter.callsToAnswer);
      for (const request of provider.requests.slice(callsBefore)) expectValidHistory(request.messages);
      expectEveryCallAnswered(next);
    }
  });

  it.each([
    ['the run completes', {}, false],
    ['the run is aborted at the same event', {}, true],
    ['the run hits maxTurns', { limits: { maxTurns: 2 } }, false],
    ['the run times out', { limits: { timeoutMs: 1 } }, false],
  ] as const)('no queued steering or follow-up message is lost when %s', async (_, options, abort) => {
    const reference = await referenceEvents(adapter);
    for (let position = 0; position < reference.length; position++) {
      const { agent } = scriptedAgent(adapter, options);
      const steering: AgentMessage = { role: 'user', content: `steer at ${position}` };
      const followUp: AgentMessage = { role: 'user', content: `follow up at ${position}` };
      let seen = 0;
      let queued = false;
      agent.subscribe(() => {
        if (seen++ !== position) return;
        queued = true;
        agent.steer(steering);
        agent.followUp(followUp);
        if (abort) agent.abort();
      });
      const result = await agent.prompt('compute').result();
      const where = `${adapter.name}: queued at ${position} (${reference[position]?.type}), ended ${result.terminateReason}`;
      // A run cut short by a limit may end before this position: then nothing was queued.
      const expected = queued ? 1 : 0;
      if (Object.keys(options).length === 0) expect(queued, where).toBe(true);
      expect(placesOf(agent, steering), where).toBe(expected);
      expect(placesOf(agent, followUp), where).toBe(expected);
      expectEveryCallAnswered(result);
      if (abort && position < reference.length - 1) expect(result.terminateReason, where).toBe('aborted');
    }
  });

  it('every tool call has exactly one result, also when a tool throws or is unknown', async () => {
    const broken = defineTool({
      name: 'slow_add',
      description: 'fails',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: () => {
        throw new Error('adder broke');
      },
    });
    const { agent } = scriptedAgent(adapter, { tools: [broken] });
    const result = await agent.prompt('compute').result();
    expectEveryCallAnswered(result);
    expect(result.toolCalls.map((call) => [call.name, call.isError])).toEqual([
      ['calculator', true],
      ['slow_add', true],
    ]);
    expect(result.toolCalls[0]?.result).toMatch(/Unknown tool 'calculator'/);
    expect(result.toolCalls[1]?.result).toBe("Tool 'slow_add' failed: adder broke");
  });
});
