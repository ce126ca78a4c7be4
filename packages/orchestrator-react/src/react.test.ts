import { checkValidHistory, collectEvents, stepOrchestrator } from '@agent-core/core/testing';
import { calculator, eventTypes } from '@agent-core/test-support';
import {
  Agent,
  type AssistantMessage,
  defineTool,
  getDefaultOrchestratorName,
  getOrchestrator,
} from '@agent-core/core';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { react } from './index.js';
import { reactToolSpecs } from './react-prompt.js';
import { action, final } from './test-support/history.js';
import { reactAgent } from './test-support/react-agent.js';

function calculatorScript() {
  return [
    { text: action('I need 15*3 first.', 'calculator', { expression: '15*3' }) },
    { text: action('Now 10+5.', 'calculator', { expression: '10+5' }) },
    { text: final('I know both.', '15*3 = 45 and 10+5 = 15') },
  ];
}

describe('react: end to end', () => {
  it('answers with two tool calls and a final answer, from text-only replies', async () => {
    const provider = mock({ turns: calculatorScript(), chunkSize: 7 });
    const agent = reactAgent({ provider, systemPrompt: 'You are terse.', tools: [calculator] });
    const result = await agent.prompt('Calculate 15*3 and 10+5').result();

    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('15*3 = 45 and 10+5 = 15');
    expect(result.turns).toBe(3);
    expect(result.toolCalls.map((call) => [call.name, call.input, call.result, call.isError])).toEqual([
      ['calculator', { expression: '15*3' }, '45', false],
      ['calculator', { expression: '10+5' }, '15', false],
    ]);
    expect(result.usage.input).toBe(30);
    checkValidHistory(result.messages);
    // The history has the same provider-neutral shape as agentic's.
    expect(result.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'assistant',
      'toolResult',
      'assistant',
    ]);
    const [, first, , , , last] = result.messages as AssistantMessage[];
    expect(first?.content).toEqual([
      { type: 'thinking', thinking: 'I need 15*3 first.' },
      { type: 'toolCall', id: expect.any(String), name: 'calculator', input: { expression: '15*3' } },
    ]);
    expect(last?.content).toEqual([
      { type: 'thinking', thinking: 'I know both.' },
      { type: 'text', text: '15*3 = 45 and 10+5 = 15' },
    ]);
  });

  it('puts the tools and the format after the agent’s system prompt, offers no native tools and stops at Observation', async () => {
    const raw = defineTool({
      name: 'lookup',
      description: 'Looks a word up.',
      parameters: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] },
      execute: ({ word }) => `definition of ${word}`,
    });
    const provider = mock({ turns: calculatorScript() });
    const agent = reactAgent({
      provider,
      systemPrompt: ({ model }) => `You are terse. Model: ${model}.`,
      tools: [calculator, raw],
    });
    await agent.prompt('Calculate').result();
    const request = provider.requests[0];
    expect(request?.tools).toBeUndefined();
    expect(request?.stopSequences).toEqual(['\nObservation:']);
    const system = request?.system ?? '';
    expect(system.startsWith('You are terse. Model: m.\n\n# Tools and reply format')).toBe(true);
    expect(system).toContain(
      '- calculator: Evaluates a binary arithmetic expression such as 15*3.\n  Input (JSON Schema): {"type":"object","properties":{"expression":{"type":"string"',
    );
    expect(system).toContain(
      '- lookup: Looks a word up.\n  Input (JSON Schema): {"type":"object","properties":{"word":{"type":"string"}},"required":["word"]}',
    );
    expect(system).toContain("Action: the tool's name, one of [calculator, lookup]");
    expect(system).toContain('Final Answer:');
  });

  it('sends the history to the model as the text protocol', async () => {
    const provider = mock({ turns: calculatorScript() });
    const agent = reactAgent({ provider, tools: [calculator] });
    await agent.prompt('Calculate').result();
    expect(provider.requests[2]?.messages).toEqual([
      { role: 'user', content: 'Calculate' },
      {
        role: 'assistant',
        content: [{ type: 'text', text: action('I need 15*3 first.', 'calculator', { expression: '15*3' }) }],
        stopReason: 'end_turn',
      },
      { role: 'user', content: 'Observation: 45' },
      {
        role: 'assistant',
        content: [{ type: 'text', text: action('Now 10+5.', 'calculator', { expression: '10+5' }) }],
        stopReason: 'end_turn',
      },
      { role: 'user', content: 'Observation: 15' },
    ]);
  });

  it('converts only what is new at each step of a run: earlier converted messages are reused, not rebuilt', async () => {
    const provider = mock({ turns: [...calculatorScript(), { text: final('again', 'same') }] });
    const agent = reactAgent({ provider, tools: [calculator] });
    await agent.prompt('Calculate').result();
    await agent.prompt('Once more').result();
    const [first, second, third, fourth] = provider.requests;
    expect(second?.messages[0]).toBe(first?.messages[0]);
    expect(third?.messages[1]).toBe(second?.messages[1]);
    // A new run converts the history once more (the transcript does not outlive its run), to the same text.
    expect(fourth?.messages.slice(0, 5)).toEqual(third?.messages);
    expect(fourth?.messages.length).toBe(7);
  });

  it('streams events in order: thoughts as thinking_delta, actions as tool calls, the answer as text_delta', async () => {
    const provider = mock({ turns: calculatorScript().slice(1), chunkSize: 4 });
    const agent = reactAgent({ provider, tools: [calculator] });
    const run = agent.prompt('Calculate 10+5');
    const events = await collectEvents(run);
    const compact = eventTypes(events)
      .filter((type) => type !== 'usage')
      .filter((type, index, all) => !(type.endsWith('_delta') && all[index - 1] === type));
    expect(compact).toEqual([
      'agent_start',
      'turn_start',
      'message_start',
      'thinking_delta',
      'message_end',
      'tool_call_start',
      'tool_call_end',
      'turn_end',
      'turn_start',
      'message_start',
      'thinking_delta',
      'text_delta',
      'message_end',
      'turn_end',
      'agent_end',
    ]);
    const thinking = events.flatMap((event) => (event.type === 'thinking_delta' ? [event.delta] : []));
    expect(thinking.join('')).toBe('Now 10+5.I know both.');
    const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
    expect(text.length).toBeGreaterThan(3);
    expect(text.join('')).toBe('15*3 = 45 and 10+5 = 15');
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
  });

  it('streams thought and answer even when the provider sends no deltas', async () => {
    const provider = mock({ turns: [{ text: final('quick', 'done') }], chunkSize: 0 });
    const agent = reactAgent({ provider });
    const events = await collectEvents(agent.prompt('hi'));
    expect(events.filter((event) => event.type === 'text_delta').map((event) => event.delta)).toEqual([
      'done',
    ]);
    expect(events.filter((event) => event.type === 'thinking_delta').map((event) => event.delta)).toEqual([
      'quick',
    ]);
  });

  it('keeps a history another orchestrator can continue with native tool calls', async () => {
    const reactProvider = mock({ turns: calculatorScript() });
    const first = reactAgent({ provider: reactProvider, tools: [calculator] });
    await first.prompt('Calculate').result();
    const nativeProvider = mock({ turns: [{ text: 'Still 45.' }] });
    const second = new Agent({
      provider: nativeProvider,
      model: 'm',
      tools: [calculator],
      messages: first.messages,
      orchestrator: stepOrchestrator,
      toolExecution: 'parallel',
    });
    const result = await second.prompt('Sure?').result();
    expect(result.text).toBe('Still 45.');
    const sent = nativeProvider.requests[0]?.messages ?? [];
    checkValidHistory(sent);
    expect(sent.filter((message) => message.role === 'toolResult')).toHaveLength(2);
  });
});

describe('react: registration', () => {
  it('registers as react, but not as the default', () => {
    expect(getOrchestrator('react').name).toBe('react');
    expect(getOrchestrator('react', { maxFormatRetries: 0 }).name).toBe('react');
    expect(getDefaultOrchestratorName()).toBeUndefined();
  });

  it('refuses a negative maxFormatRetries', () => {
    expect(() => react({ maxFormatRetries: -1 })).toThrow(/maxFormatRetries must be a whole number/);
  });
});

describe('react: tool schemas', () => {
  it("describes each tool once from core's converted spec and reuses it on every run", () => {
    const toolSpec = {
      name: 'calculator',
      description: 'calc',
      parameters: { type: 'object', required: ['expression'] },
    };
    const first = reactToolSpecs([toolSpec]);
    const second = reactToolSpecs([toolSpec]);
    expect(second[0]).toBe(first[0]);
    expect(first[0]).toMatchObject({ name: 'calculator', requiresInput: true });
  });
});

describe('react: retries', () => {
  it('starts the reply over when core retries after a partial attempt', async () => {
    const provider = mock({
      turns: [
        { text: 'Thought: a\nFinal Answer: hel', error: { kind: 'overloaded', afterChunks: 7 } },
        { text: 'Thought: second try\nFinal Answer: hello' },
      ],
      chunkSize: 4,
    });
    const agent = reactAgent({ provider, retry: { baseDelayMs: 1 } });
    const after: string[] = [];
    let retried = false;
    agent.subscribe((event) => {
      if (event.type === 'retry') retried = true;
      if (retried && event.type === 'text_delta') after.push(event.delta);
    });
    const result = await agent.prompt('hi').result();
    expect(retried).toBe(true);
    expect(after.join('')).toBe('hello');
    expect(result.text).toBe('hello');
  });
});
