import { Agent, type AgentEvent, defineTool, type ToolResultMessage } from '@agent-core/core';
import { checkValidHistory, collectEvents } from '@agent-core/core/testing';
import { calculator, eventTypes } from '@agent-core/test-support';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentic } from './index.js';
import { countingTool, failingTool } from '@agent-core/test-support/sample-tools';
import { agenticAgent } from './test-support/agentic-agent.js';

function calculatorTurns() {
  return [
    {
      toolCalls: [
        { name: 'calculator', input: { expression: '15*3' } },
        { name: 'calculator', input: { expression: '10+5' } },
      ],
    },
    { text: '15*3 = 45 and 10+5 = 15' },
  ];
}

describe('agentic: the seed example', () => {
  it('answers with two calculator calls then text, events in order', async () => {
    const provider = mock({ turns: calculatorTurns(), chunkSize: 6 });
    const agent = new Agent({ provider, model: 'mock', tools: [calculator], orchestrator: agentic() });
    const run = agent.prompt('Calculate 15*3 and 10+5');
    const events = await collectEvents(run);
    const result = await run.result();

    const types = eventTypes(events).filter((type) => type !== 'usage');
    expect(types).toEqual([
      'agent_start',
      'turn_start',
      'message_start',
      'message_end',
      'tool_call_start',
      'tool_call_end',
      'tool_call_start',
      'tool_call_end',
      'turn_end',
      'turn_start',
      'message_start',
      'text_delta',
      'text_delta',
      'text_delta',
      'text_delta',
      'message_end',
      'turn_end',
      'agent_end',
    ]);
    const ends = events.filter((event) => event.type === 'tool_call_end');
    expect(ends.map((event) => [event.toolCall.input.expression, event.result])).toEqual([
      ['15*3', '45'],
      ['10+5', '15'],
    ]);
    const deltas = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
    expect(deltas.join('')).toBe('15*3 = 45 and 10+5 = 15');
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    expect(new Set(events.map((event) => event.runId))).toEqual(new Set([run.runId]));

    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('15*3 = 45 and 10+5 = 15');
    expect(result.turns).toBe(2);
    expect(
      result.toolCalls.map((call) => [call.name, call.input.expression, call.result, call.isError]),
    ).toEqual([
      ['calculator', '15*3', '45', false],
      ['calculator', '10+5', '15', false],
    ]);
    expect(result.usage.input).toBe(20);
    checkValidHistory(result.messages);
    expect(result.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'toolResult',
      'assistant',
    ]);
  });

  it('sends the tools as JSON Schema and the tool results back to the model', async () => {
    const provider = mock({ turns: calculatorTurns() });
    const agent = agenticAgent({ provider, systemPrompt: 'Be brief.', tools: [calculator] });
    await agent.prompt('Calculate').result();
    const [first, second] = provider.requests;
    expect(first?.system).toBe('Be brief.');
    expect(first?.tools?.[0]).toMatchObject({
      name: 'calculator',
      parameters: {
        type: 'object',
        properties: { expression: { type: 'string' } },
        required: ['expression'],
      },
    });
    expect(second?.messages.slice(-2).map((message) => (message as ToolResultMessage).content)).toEqual([
      '45',
      '15',
    ]);
  });

  it('becomes the default orchestrator when imported', async () => {
    const agent = new Agent({ provider: mock({ turns: [{ text: 'hi' }] }), model: 'm' });
    expect((await agent.prompt('hello').result()).text).toBe('hi');
  });
});

describe('agentic: steering and follow-up', () => {
  it('a steering message during the first of three calls skips the other two and reaches the model next', async () => {
    const provider = mock({
      turns: [
        {
          toolCalls: [
            { name: 'calculator', input: { expression: '1+1' } },
            { name: 'calculator', input: { expression: '2+2' } },
            { name: 'calculator', input: { expression: '3+3' } },
          ],
        },
        { text: 'Stopped as you asked.' },
      ],
    });
    const agent = agenticAgent({ provider, tools: [calculator] });
    const run = agent.prompt('add things');
    const events: AgentEvent[] = [];
    for await (const event of run) {
      events.push(event);
      if (event.type === 'tool_call_start' && event.toolCall.input.expression === '1+1')
        agent.steer('stop, please');
    }
    const result = await run.result();
    expect(events.filter((event) => event.type === 'tool_call_end')).toHaveLength(1);
    const skipped = events.flatMap((event) =>
      event.type === 'tool_skipped' ? [event.toolCall.input.expression] : [],
    );
    expect(skipped).toEqual(['2+2', '3+3']);
    expect(eventTypes(events).indexOf('steering')).toBeGreaterThan(
      eventTypes(events).lastIndexOf('tool_skipped'),
    );
    checkValidHistory(result.messages);
    const roles = result.messages.map((message) => message.role);
    expect(roles).toEqual([
      'user',
      'assistant',
      'toolResult',
      'toolResult',
      'toolResult',
      'user',
      'assistant',
    ]);
    const sent = provider.requests[1]?.messages ?? [];
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'stop, please' });
    expect(sent.slice(-3, -1).every((message) => (message as ToolResultMessage).isError)).toBe(true);
    expect(result.toolCalls.map((call) => call.isError)).toEqual([false, true, true]);
    expect(agent.queued.steering).toHaveLength(0);
  });

  it('a follow-up message queued during the run starts another turn after the answer', async () => {
    const provider = mock({ turns: [{ text: 'first answer' }, { text: 'second answer' }] });
    const agent = agenticAgent({ provider });
    const run = agent.prompt('question');
    const events: AgentEvent[] = [];
    for await (const event of run) {
      events.push(event);
      if (event.type === 'message_start' && event.turn === 1) agent.followUp('and another thing');
    }
    const result = await run.result();
    expect(result.turns).toBe(2);
    expect(result.text).toBe('second answer');
    expect(
      eventTypes(events).filter((type) => ['turn_end', 'follow_up', 'turn_start'].includes(type)),
    ).toEqual(['turn_start', 'turn_end', 'follow_up', 'turn_start', 'turn_end']);
    expect(provider.requests[1]?.messages.at(-1)).toEqual({ role: 'user', content: 'and another thing' });
  });

  it('takes follow-ups from getFollowUpMessages too', async () => {
    const extra = [{ role: 'user' as const, content: 'more' }];
    const agent = agenticAgent({
      provider: mock({ turns: [{ text: 'a' }, { text: 'b' }] }),
      getFollowUpMessages: () => extra.splice(0),
    });
    const result = await agent.prompt('q').result();
    expect(result.text).toBe('b');
    expect(result.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('keeps a message steered after the run ended for the next prompt, before it', async () => {
    const provider = mock({ turns: [{ text: 'one' }, { text: 'two' }] });
    const agent = agenticAgent({ provider });
    await agent.prompt('first').result();
    agent.steer('late note');
    expect(agent.queued.steering).toHaveLength(1);
    await agent.prompt('second').result();
    expect(provider.requests[1]?.messages.slice(-2)).toEqual([
      { role: 'user', content: 'late note' },
      { role: 'user', content: 'second' },
    ]);
    expect(agent.queued.steering).toHaveLength(0);
  });
});

describe('agentic: tool errors come back as results and the loop goes on', () => {
  const thrower = failingTool('thrower');
  const rejecter = defineTool({
    name: 'rejecter',
    description: 'fails asynchronously',
    parameters: z.object({}),
    execute: async () => Promise.reject(new Error('remote said no')),
  });
  const sleeper = defineTool({
    name: 'sleeper',
    description: 'never finishes',
    parameters: z.object({}),
    timeoutMs: 20,
    execute: () => new Promise<string>(() => {}),
  });

  it.each([
    [
      'unknown tool',
      { name: 'nope', input: {} },
      /Unknown tool 'nope'. Available tools: calculator, thrower/,
    ],
    [
      'invalid input',
      { name: 'calculator', input: { expression: 42 } },
      /Invalid input for tool 'calculator': input.expression/,
    ],
    ['a throwing tool', { name: 'thrower', input: {} }, /Tool 'thrower' failed: disk on fire/],
    ['a rejecting tool', { name: 'rejecter', input: {} }, /Tool 'rejecter' failed: remote said no/],
    ['a tool past its timeout', { name: 'sleeper', input: {} }, /Tool 'sleeper' timed out after 20 ms/],
  ])('%s', async (_, call, message) => {
    const provider = mock({ turns: [{ toolCalls: [call] }, { text: 'recovered' }] });
    const agent = agenticAgent({ provider, tools: [calculator, thrower, rejecter, sleeper] });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('recovered');
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]?.isError).toBe(true);
    expect(result.toolCalls[0]?.result).toMatch(message);
    checkValidHistory(result.messages);
    const sent = provider.requests[1]?.messages.at(-1) as ToolResultMessage;
    expect(sent.isError).toBe(true);
  });

  it('never runs a call cut off by the output limit', async () => {
    const { tool: counter, runs } = countingTool();
    const provider = mock({
      turns: [
        {
          toolCalls: [
            { name: 'counter', input: {} },
            { name: 'counter', input: { text: 'cut o' } },
          ],
          stopReason: 'max_tokens',
        },
        { text: 'ok' },
      ],
    });
    const agent = agenticAgent({ provider, tools: [counter] });
    const result = await agent.prompt('go').result();
    expect(runs()).toBe(1);
    expect(result.toolCalls[1]?.result).toMatch(/cut off by the output token limit \(max_tokens\)/);
    checkValidHistory(result.messages);
  });

  it('lets a beforeToolCall hook block a call', async () => {
    const agent = agenticAgent({
      provider: mock({
        turns: [{ toolCalls: [{ name: 'calculator', input: { expression: '1+1' } }] }, { text: 'fine' }],
      }),
      tools: [calculator],
      hooks: { beforeToolCall: (call) => ({ block: `no ${call.name} today` }) },
    });
    const result = await agent.prompt('go').result();
    expect(result.toolCalls[0]).toMatchObject({
      isError: true,
      result: "Tool call 'calculator' was blocked: no calculator today",
    });
  });
});

describe('agentic: steering while the model answers', () => {
  it.each(['sequential', 'parallel'] as const)(
    'a steering message that arrives during streaming runs none of that answer’s calls (%s)',
    async (toolExecution) => {
      const provider = mock({
        turns: [
          {
            text: 'Let me add.',
            toolCalls: [
              { name: 'calculator', input: { expression: '1+1' } },
              { name: 'calculator', input: { expression: '2+2' } },
            ],
          },
          { text: 'Understood, I will not add.' },
        ],
        chunkSize: 3,
      });
      const agent = agenticAgent({ provider, tools: [calculator], toolExecution });
      let steered = false;
      agent.subscribe((event) => {
        if (event.type === 'text_delta' && !steered) {
          steered = true;
          agent.steer('never mind, do not add anything');
        }
      });
      const run = agent.prompt('add things');
      const events = await collectEvents(run);
      const result = await run.result();
      expect(events.some((event) => event.type === 'tool_call_start')).toBe(false);
      expect(events.filter((event) => event.type === 'tool_skipped')).toHaveLength(2);
      expect(result.toolCalls.every((call) => call.isError)).toBe(true);
      expect(provider.requests[1]?.messages.at(-1)).toEqual({
        role: 'user',
        content: 'never mind, do not add anything',
      });
      expect(result.text).toBe('Understood, I will not add.');
      checkValidHistory(result.messages);
    },
  );
});
