import { checkValidHistory } from '@agent-core/core/testing';
import { calculator, eventTypes } from '@agent-core/test-support';
import {
  Agent,
  type AgentEvent,
  getDefaultOrchestratorName,
  getOrchestrator,
  type UserMessage,
} from '@agent-core/core';
import { type MockTurn, mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { planExecute } from './index.js';
import { planExecuteAgent } from './test-support/plan-execute-agent.js';

function plan(...titles: string[]): MockTurn {
  return { text: JSON.stringify({ steps: titles.map((title) => ({ title, instruction: `Do: ${title}` })) }) };
}

function customs(events: readonly AgentEvent[]) {
  return events.flatMap((event) => (event.type === 'custom' ? [{ name: event.name, data: event.data }] : []));
}

function lastUserText(provider: ReturnType<typeof mock>, call: number): string {
  const message = provider.requests[call]?.messages.at(-1) as UserMessage | undefined;
  return String(message?.content);
}

const failingScript: MockTurn[] = [
  plan('multiply', 'read the file', 'report'),
  { toolCalls: [{ name: 'calculator', input: { expression: '15*3' } }] },
  { text: '45' },
  { text: 'STEP_FAILED: the file does not exist' },
  {
    text: '```json\n{"steps": [{"title": "use the number", "instruction": "Use 45 instead"}, {"title": "report", "instruction": "Report"}]}\n```',
  },
  { text: 'used 45' },
  { text: 'reported' },
  { text: 'The result is 45.' },
];

describe('plan-execute: a three-step plan whose second step fails once', () => {
  it('re-plans, runs the new steps, sums up, and shows it all as events', async () => {
    const provider = mock({ turns: failingScript, chunkSize: 6 });
    const agent = planExecuteAgent({ provider, tools: [calculator] });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const result = await agent.prompt('Multiply 15 by 3, then read numbers.txt, then report.').result();

    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('The result is 45.');
    expect(result.turns).toBe(8);
    expect(result.toolCalls.map((call) => [call.name, call.result])).toEqual([['calculator', '45']]);
    checkValidHistory(result.messages);

    const step = (title: string) => ({ title, instruction: expect.any(String) });
    expect(customs(events)).toEqual([
      { name: 'plan', data: { steps: [step('multiply'), step('read the file'), step('report')] } },
      { name: 'step_start', data: { index: 0, total: 3, step: step('multiply') } },
      { name: 'step_end', data: { index: 0, step: step('multiply'), status: 'done', result: '45' } },
      { name: 'step_start', data: { index: 1, total: 3, step: step('read the file') } },
      {
        name: 'step_end',
        data: {
          index: 1,
          step: step('read the file'),
          status: 'failed',
          result: 'STEP_FAILED: the file does not exist',
          reason: 'the file does not exist',
        },
      },
      {
        name: 'replan',
        data: {
          attempt: 1,
          failedIndex: 1,
          reason: 'the file does not exist',
          steps: [step('use the number'), step('report')],
        },
      },
      { name: 'step_start', data: { index: 1, total: 3, step: step('use the number') } },
      {
        name: 'step_end',
        data: { index: 1, step: step('use the number'), status: 'done', result: 'used 45' },
      },
      { name: 'step_start', data: { index: 2, total: 3, step: step('report') } },
      { name: 'step_end', data: { index: 2, step: step('report'), status: 'done', result: 'reported' } },
    ]);

    // What the model was asked at each call.
    expect(lastUserText(provider, 0)).toMatch(/^Before doing anything, write a plan/);
    expect(lastUserText(provider, 0)).toContain('- calculator: Evaluates a binary arithmetic expression');
    expect(lastUserText(provider, 1)).toMatch(/^Step 1 of 3: multiply\nDo: multiply/);
    expect(lastUserText(provider, 3)).toMatch(/^Step 2 of 3: read the file/);
    expect(lastUserText(provider, 4)).toMatch(
      /^Step "read the file" failed: the file does not exist\nSteps already done \(do not repeat them\): multiply\./,
    );
    expect(lastUserText(provider, 5)).toMatch(/^Step 2 of 3: use the number/);
    expect(lastUserText(provider, 7)).toMatch(/^All steps are done/);
    // Tools stay declared while planning but may not be called.
    expect(provider.requests[0]?.toolChoice).toBe('none');
    expect(provider.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['calculator']);
    expect(provider.requests[1]?.toolChoice).toBeUndefined();
  });

  it('streams step work as thinking_delta and only the final answer as text_delta', async () => {
    const provider = mock({ turns: failingScript, chunkSize: 4 });
    const agent = planExecuteAgent({ provider, tools: [calculator] });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    await agent.prompt('go').result();
    const text = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
    expect(text.join('')).toBe('The result is 45.');
    const thinking = events.flatMap((event) => (event.type === 'thinking_delta' ? [event.delta] : []));
    expect(thinking.join('')).toBe('45STEP_FAILED: the file does not existused 45reported');
    const types = eventTypes(events);
    expect(types[0]).toBe('agent_start');
    expect(types.at(-1)).toBe('agent_end');
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
  });
});

describe('plan-execute: invalid plans', () => {
  it('sends an invalid plan back once with what was wrong', async () => {
    const provider = mock({
      turns: [{ text: '{"steps": [{"title": ""}]}' }, plan('only'), { text: 'did it' }, { text: 'Done.' }],
    });
    const agent = planExecuteAgent({ provider });
    const result = await agent.prompt('go').result();
    expect(result.text).toBe('Done.');
    const correction = lastUserText(provider, 1);
    expect(correction).toMatch(/^That plan could not be used: /);
    expect(correction).toContain('plan.steps.0.title needs a title');
    expect(correction).toContain('plan.steps.0.instruction');
    expect(correction).toContain('{"steps": [{"title": "a short title"');
  });

  it.each([
    ['prose', 'I would first think, then act.', /no JSON object/],
    ['broken JSON', '{"steps": [', /not valid/],
    ['no steps', '{"steps": []}', /at least one step/],
  ])('ends with error after a second invalid plan (%s)', async (_, bad, problem) => {
    const provider = mock({ turns: [{ text: bad }, { text: bad }, plan('late')] });
    const agent = planExecuteAgent({ provider });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('error');
    expect(result.error?.code).toBe('plan_invalid');
    expect(result.error?.message).toMatch(problem);
    expect(provider.calls).toBe(2);
    checkValidHistory(result.messages);
  });

  it('refuses a plan longer than maxSteps', async () => {
    const provider = mock({ turns: [plan('a', 'b', 'c'), plan('a', 'b', 'c')] });
    const agent = new Agent({ provider, model: 'm', orchestrator: planExecute({ maxSteps: 2 }) });
    const result = await agent.prompt('go').result();
    expect(result.error?.message).toMatch(/at most 2 steps/);
  });
});

describe('plan-execute: failures and re-plan limits', () => {
  it('ends with error when a step fails and no re-plan is left', async () => {
    const provider = mock({
      turns: [plan('a'), { text: 'STEP_FAILED: no way' }, plan('b'), { text: 'step_failed: still no' }],
    });
    const agent = new Agent({ provider, model: 'm', orchestrator: planExecute({ maxReplans: 1 }) });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('error');
    expect(result.error?.code).toBe('plan_step_failed');
    expect(result.error?.message).toBe('Step "b" failed and no re-plan is left (maxReplans: 1): still no');
    checkValidHistory(result.messages);
  });

  it('a step that reaches maxStepTurns without an answer has failed', async () => {
    const loop: MockTurn = { toolCalls: [{ name: 'calculator', input: { expression: '1+1' } }] };
    const provider = mock({
      turns: [plan('spin'), loop, loop, plan('rest'), { text: 'ok' }, { text: 'fine' }],
    });
    const agent = new Agent({
      provider,
      model: 'm',
      tools: [calculator],
      orchestrator: planExecute({ maxStepTurns: 2 }),
    });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const result = await agent.prompt('go').result();
    expect(result.text).toBe('fine');
    expect(customs(events).find((event) => event.name === 'replan')?.data).toMatchObject({
      reason: 'it used 2 model calls without an answer (maxStepTurns).',
    });
    checkValidHistory(result.messages);
  });

  it('a model error ends the run with error', async () => {
    const provider = mock({
      turns: [plan('a'), { error: { kind: 'invalid_request', message: 'bad request' } }],
    });
    const agent = planExecuteAgent({ provider });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('error');
    expect(result.error?.message).toBe('bad request');
  });
});

describe('plan-execute: registration', () => {
  it('registers as plan-execute, but not as the default', () => {
    expect(getOrchestrator('plan-execute').name).toBe('plan-execute');
    expect(getDefaultOrchestratorName()).toBeUndefined();
    expect(() => planExecute({ maxReplans: -1 })).toThrow(/maxReplans must be a whole number of 0 or more/);
    expect(() => planExecute({ maxStepTurns: 0 })).toThrow(/maxStepTurns/);
  });
});
