import { Agent, type AgentEvent } from '@agent-core/core';
import { checkValidHistory } from '@agent-core/core/testing';
import { calculator } from '@agent-core/test-support';
import { type MockTurn, mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { isPlanExecuteEvent, isPlanExecuteEventOf } from './index.js';
import { planExecuteAgent } from './test-support/plan-execute-agent.js';

function plan(...titles: string[]): MockTurn {
  return { text: JSON.stringify({ steps: titles.map((title) => ({ title, instruction: `Do: ${title}` })) }) };
}

const script: MockTurn[] = [
  plan('compute', 'answer'),
  {
    toolCalls: [
      { name: 'calculator', input: { expression: '15*3' } },
      { name: 'calculator', input: { expression: '10+5' } },
    ],
  },
  { text: '45 and 15' },
  { text: 'answered' },
  { text: 'It is 45 and 15.' },
];

function scriptedAgent() {
  // After 'once more' the mock plans one step and answers everything else with text: three calls.
  const provider = mock({
    turns: (request, call) => {
      if (!request.messages.some((message) => (message as { content?: unknown }).content === 'once more'))
        return script[call] as MockTurn;
      const last = String((request.messages.at(-1) as { content?: unknown }).content);
      return last.startsWith('Before doing anything') ? plan('again') : { text: 'plain answer' };
    },
    chunkSize: 5,
  });
  const agent = planExecuteAgent({ provider, tools: [calculator] });
  return { agent, provider };
}

// An abort at every event, a tool that ignores its signal and a model that hangs past the timeout
// are the conformance kit's (conformance.test.ts).
describe('plan-execute: limits', () => {
  it('maxTurns counts every model call: planning, steps and the summary', async () => {
    const { agent, provider } = scriptedAgent();
    const limited = new Agent({ ...agent.options, limits: { maxTurns: 3 } });
    const result = await limited.prompt('compute').result();
    expect(result.terminateReason).toBe('max_turns');
    expect(result.turns).toBe(3);
    expect(provider.calls).toBe(3);
    expect(result.text).toMatch(/limit of 3 turns/);
    checkValidHistory(result.messages);
  });
});

describe('plan-execute: steering and follow-up', () => {
  it('steering during a step skips its remaining tool calls and reaches the model in that step', async () => {
    const { agent, provider } = scriptedAgent();
    agent.subscribe((event) => {
      if (event.type === 'tool_call_start' && event.toolCall.input.expression === '15*3')
        agent.steer('only 15*3');
    });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const result = await agent.prompt('compute').result();
    expect(result.terminateReason).toBe('completed');
    expect(events.filter((event) => event.type === 'tool_skipped')).toHaveLength(1);
    expect(provider.requests[2]?.messages.at(-1)).toEqual({ role: 'user', content: 'only 15*3' });
    expect(agent.queued.steering).toHaveLength(0);
    checkValidHistory(result.messages);
  });

  it('a follow-up queued during the run is planned and answered as a new request', async () => {
    const provider = mock({
      turns: [
        plan('one'),
        { text: 'did one' },
        { text: 'first' },
        plan('two'),
        { text: 'did two' },
        { text: 'second' },
      ],
    });
    const agent = planExecuteAgent({ provider });
    agent.subscribe((event) => {
      if (event.type === 'turn_start' && event.turn === 1) agent.followUp('and then?');
    });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const result = await agent.prompt('start').result();
    expect(result.text).toBe('second');
    expect(events.filter((event) => event.type === 'custom' && event.name === 'plan')).toHaveLength(2);
    expect(provider.requests[3]?.messages.at(-2)).toEqual({ role: 'user', content: 'and then?' });
    expect(agent.queued.followUp).toHaveLength(0);
  });
});

describe('plan-execute: typed events', () => {
  it('isPlanExecuteEvent narrows each custom event to its data without a cast', async () => {
    const agent = planExecuteAgent({
      provider: mock({ turns: [plan('a'), { text: 'did a' }, { text: 'All done.' }] }),
    });
    const run = agent.prompt('go');
    const seen: string[] = [];
    for await (const event of run) {
      if (!isPlanExecuteEvent(event)) continue;
      switch (event.name) {
        case 'plan':
          seen.push(`plan ${event.data.steps.map((step) => step.title).join(',')}`);
          break;
        case 'step_end':
          seen.push(`end ${event.data.index} ${event.data.status}`);
          break;
        default:
          seen.push(event.name);
      }
    }
    expect(seen).toEqual(['plan a', 'step_start', 'end 0 done']);
    const other = { type: 'custom', name: 'elsewhere', data: 1, runId: 'r', turn: 0, seq: 0 } as const;
    expect(isPlanExecuteEvent(other)).toBe(false);
    expect(isPlanExecuteEventOf(other, 'plan')).toBe(false);
  });
});
