import { Agent, type AgentEvent, defineTool } from '@agent-core/core';
import { checkValidHistory } from '@agent-core/core/testing';
import { calculator, eventTypes } from '@agent-core/test-support';
import { type MockTurn, mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { react } from './index.js';
import { action, final } from './test-support/history.js';
import { reactAgent } from './test-support/react-agent.js';
import { abortAtTextDelta } from '@agent-core/test-support/agent-events';

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
  { text: action('Multiply first.', 'calculator', { expression: '15*3' }) },
  { text: action('Then add.', 'slow_add', { a: 10, b: 5 }) },
  { text: final('Both known.', '45 and 15') },
];

function scriptedAgent() {
  const provider = mock({ turns: script, chunkSize: 6 });
  const agent = reactAgent({ provider, tools: [calculator, slowAdd] });
  return { agent, provider };
}

// An abort at every event, a tool that ignores its signal, a model that hangs past the timeout and
// model errors are the conformance kit's (conformance.test.ts).
describe('react: abort', () => {
  it('keeps the part of the final answer streamed before an abort', async () => {
    const provider = mock({ turns: [{ text: 'Thought: ok\nFinal Answer: abcdefghij' }], chunkSize: 2 });
    const agent = reactAgent({ provider });
    abortAtTextDelta(agent, 2);
    const result = await agent.prompt('hi').result();
    expect(result.terminateReason).toBe('aborted');
    expect(result.messages.at(-1)).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'abcd' }],
      stopReason: 'aborted',
    });
  });
});

describe('react: steering and follow-up', () => {
  it('a steering message sent during an action reaches the model right after its observation', async () => {
    const { agent, provider } = scriptedAgent();
    agent.subscribe((event) => {
      if (event.type === 'tool_call_start' && event.toolCall.name === 'calculator') agent.steer('use words');
    });
    const events: string[] = [];
    agent.subscribe((event) => events.push(event.type));
    const result = await agent.prompt('compute').result();
    expect(result.terminateReason).toBe('completed');
    expect(provider.requests[1]?.messages.slice(-2)).toEqual([
      { role: 'user', content: 'Observation: 45' },
      { role: 'user', content: 'use words' },
    ]);
    expect(events.indexOf('steering')).toBeGreaterThan(events.indexOf('tool_call_end'));
    expect(events.indexOf('steering')).toBeLessThan(events.indexOf('turn_end'));
    expect(agent.queued.steering).toHaveLength(0);
    checkValidHistory(result.messages);
  });

  it('a follow-up queued during the run starts another turn after the final answer', async () => {
    const provider = mock({ turns: [{ text: final('a', 'first') }, { text: final('b', 'second') }] });
    const agent = reactAgent({ provider });
    agent.subscribe((event) => {
      if (event.type === 'message_start' && event.turn === 1) agent.followUp('and another thing');
    });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const result = await agent.prompt('question').result();
    expect(result.text).toBe('second');
    expect(result.turns).toBe(2);
    expect(
      eventTypes(events).filter((type) => ['turn_end', 'follow_up', 'turn_start'].includes(type)),
    ).toEqual(['turn_start', 'turn_end', 'follow_up', 'turn_start', 'turn_end']);
    expect(provider.requests[1]?.messages.at(-1)).toEqual({ role: 'user', content: 'and another thing' });
  });
});

// maxTurns and maxTokens over every model call, and a message steered between runs, are the kit's and
// core's (conformance.test.ts): here, what only ReAct does.
describe('react: limits', () => {
  it('malformed replies count as turns too', async () => {
    const provider = mock({ turns: () => ({ text: 'no format' }) });
    const agent = new Agent({
      provider,
      model: 'm',
      limits: { maxTurns: 2 },
      orchestrator: react({ maxFormatRetries: 5 }),
    });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('max_turns');
    expect(provider.calls).toBe(2);
  });
});
