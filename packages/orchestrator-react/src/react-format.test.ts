import { Agent, type AgentEvent, defineTool, type UserMessage } from '@agent-core/core';
import { checkValidHistory } from '@agent-core/core/testing';
import { calculator } from '@agent-core/test-support';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { react } from './index.js';
import { action, final } from './test-support/history.js';
import { reactAgent } from './test-support/react-agent.js';
import { countingTool } from '@agent-core/test-support/sample-tools';

const clock = defineTool({
  name: 'clock',
  description: 'Tells the time.',
  parameters: z.object({ zone: z.string().optional() }),
  execute: ({ zone }) => `12:00 ${zone ?? 'UTC'}`,
});

function agentFor(turns: string[], options: Parameters<typeof react>[0] = {}) {
  const provider = mock({ turns: turns.map((text) => ({ text })), chunkSize: 5 });
  const agent = new Agent({ provider, model: 'm', tools: [calculator, clock], orchestrator: react(options) });
  return { agent, provider };
}

function lastSent(provider: ReturnType<typeof mock>, call: number): string {
  const message = provider.requests[call]?.messages.at(-1) as UserMessage;
  return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
}

describe('react: malformed steps are sent back as an Observation, then the model recovers', () => {
  it.each([
    ['plain prose', 'The answer is probably 45.', /neither an 'Action:' line nor a 'Final Answer:' line/],
    ['an empty reply', '', /your reply was empty/],
    ['invalid JSON input', 'Action: calculator\nAction Input: {"expression": 15*3', /not valid JSON/],
    ['a non-object input', 'Action: calculator\nAction Input: "15*3"', /must be one JSON object/],
    [
      'a missing required input',
      'Thought: go\nAction: calculator',
      /'Action Input:' is missing.*"required":\["expression"\]/,
    ],
    ['an empty final answer', 'Final Answer:', /'Final Answer:' was empty/],
  ])('%s', async (_, bad, problem) => {
    const { agent, provider } = agentFor([bad, final('fixed', '45')]);
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const result = await agent.prompt('what is 15*3?').result();
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('45');
    expect(result.toolCalls).toHaveLength(0);
    const correction = lastSent(provider, 1);
    expect(correction).toMatch(/^Observation: Your reply did not follow the format: /);
    expect(correction).toMatch(problem);
    expect(correction).toContain("Action: the tool's name, one of [calculator, clock]");
    expect(correction).toContain('Final Answer: the answer for the user');
    // The bad reply is shown to the model, but the agent's history holds only well-formed steps.
    if (bad !== '') expect(provider.requests[1]?.messages.at(-2)).toMatchObject({ role: 'assistant' });
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    const formatErrors = events.filter((event) => event.type === 'custom');
    expect(formatErrors).toMatchObject([{ name: 'react_format_error', data: { attempt: 1 } }]);
  });

  it('runs a tool without required input when the Action Input is missing', async () => {
    const { agent } = agentFor(['Thought: what time?\nAction: clock', final('known', 'noon')]);
    const result = await agent.prompt('time?').result();
    expect(result.toolCalls.map((call) => [call.name, call.input, call.result])).toEqual([
      ['clock', {}, '12:00 UTC'],
    ]);
  });

  it('runs the first of several actions and tells the model to use one per reply', async () => {
    const both = `${action('two at once', 'calculator', { expression: '1+1' })}\n${action('', 'calculator', { expression: '2+2' })}`;
    const { agent, provider } = agentFor([both, final('ok', '2')]);
    const result = await agent.prompt('go').result();
    expect(result.toolCalls.map((call) => call.input.expression)).toEqual(['1+1']);
    expect(provider.requests[1]?.messages.slice(-2)).toEqual([
      { role: 'user', content: 'Observation: 2' },
      {
        role: 'user',
        content:
          'Note: only the first Action of your reply was run; 1 more were ignored. Write one Action per reply and wait for its Observation.',
      },
    ]);
    checkValidHistory(result.messages);
  });

  it('cuts off an Observation the model invented and uses the real one', async () => {
    const invented = `${action('add', 'calculator', { expression: '1+1' })}\nObservation: 3\nThought: so\nFinal Answer: 3`;
    const { agent, provider } = agentFor([invented, final('real result', '2')]);
    const result = await agent.prompt('1+1?').result();
    expect(result.text).toBe('2');
    expect(result.toolCalls[0]?.result).toBe('2');
    expect(lastSent(provider, 1)).toBe('Observation: 2');
    expect(JSON.stringify(provider.requests[1]?.messages)).not.toContain('Observation: 3');
  });

  it('ignores prose after the final answer section', async () => {
    const { agent } = agentFor(['Thought: easy\nFinal Answer: 4\nThought: I could also\nAction: calculator']);
    const result = await agent.prompt('2+2?').result();
    expect(result.text).toBe('4');
    expect(result.toolCalls).toHaveLength(0);
  });

  it('matches a tool name in another case, and reports an unknown tool as a tool error, not a format error', async () => {
    const { agent } = agentFor([
      'Action: CALCULATOR\nAction Input: {"expression": "2*3"}',
      'Action: weather\nAction Input: {}',
      final('done', '6'),
    ]);
    const result = await agent.prompt('go').result();
    expect(result.toolCalls.map((call) => [call.name, call.result, call.isError])).toEqual([
      ['calculator', '6', false],
      ['weather', "Unknown tool 'weather'. Available tools: calculator, clock.", true],
    ]);
    expect(result.terminateReason).toBe('completed');
  });

  it('reports invalid input through the tool error result, like agentic', async () => {
    const { agent } = agentFor(['Action: calculator\nAction Input: {"expression": 42}', final('hm', 'x')]);
    const result = await agent.prompt('go').result();
    expect(result.toolCalls[0]?.isError).toBe(true);
    expect(result.toolCalls[0]?.result).toMatch(/Invalid input for tool 'calculator': input.expression/);
  });
});

describe('react: retry limit', () => {
  it('ends with error and a clear message after maxFormatRetries corrections (default 2)', async () => {
    const { agent, provider } = agentFor(['nope', 'still no', 'never', final('late', 'too late')]);
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('error');
    expect(provider.calls).toBe(3);
    expect(result.error?.code).toBe('react_format');
    expect(result.error?.message).toMatch(
      /did not follow the ReAct format 3 times in a row \(maxFormatRetries: 2\)\. Last problem: your reply had neither/,
    );
    checkValidHistory(result.messages);
    expect(result.messages).toEqual([{ role: 'user', content: 'go' }]);
  });

  it('counts only failures in a row: a good step resets the count', async () => {
    const { agent } = agentFor(
      ['bad', action('ok', 'calculator', { expression: '1+1' }), 'bad again', final('done', '2')],
      { maxFormatRetries: 1 },
    );
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('completed');
  });

  it('maxFormatRetries: 0 ends at the first malformed step', async () => {
    const { agent, provider } = agentFor(['bad', final('x', 'y')], { maxFormatRetries: 0 });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('error');
    expect(provider.calls).toBe(1);
  });

  it('a new run does not show the model the corrections of an earlier run', async () => {
    const { agent, provider } = agentFor(['bad', final('x', 'first'), final('y', 'second')]);
    await agent.prompt('one').result();
    await agent.prompt('two').result();
    expect(provider.requests[2]?.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'user',
    ]);
  });
});

describe('react: output limit', () => {
  it('never runs an action cut off by max_tokens, and says so in its result', async () => {
    const { tool: counter, runs } = countingTool();
    const provider = mock({
      turns: [
        { text: 'Action: counter\nAction Input: {"text": "cut"}', stopReason: 'max_tokens' },
        { text: final('ok', 'fine') },
      ],
    });
    const agent = reactAgent({ provider, tools: [counter] });
    const result = await agent.prompt('go').result();
    expect(runs()).toBe(0);
    expect(result.toolCalls[0]?.result).toMatch(/cut off by the output token limit \(max_tokens\)/);
    expect(result.text).toBe('fine');
    checkValidHistory(result.messages);
  });

  it('an answer cut off by the output limit ends with output_limit', async () => {
    const provider = mock({ turns: [{ text: 'Final Answer: half an ans', stopReason: 'max_tokens' }] });
    const agent = reactAgent({ provider });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('output_limit');
    expect(result.text).toBe('half an ans');
  });
});
