import { describe, expect, it } from 'vitest';
import { type AgentEvent, defaultGuard, GuardError, historyProblems, RunStoppedError } from '../index.js';
import { inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { countedTools, resultsOf } from './test-support/governed-tools.js';
import { stepAgent } from '../test-support/step-agent.js';

const sameCall = (count: number, then?: string) => [
  ...Array.from({ length: count }, (_, index) => [toolDone('read_file', { path: 'x' }, `c${index + 1}`)]),
  ...(then === undefined ? [] : [[textDone(then)]]),
];

describe('guard', () => {
  it('refuses the 4th and 5th identical call in a row with an error result saying so; the tool ran 3 times', async () => {
    const { runs, tools } = countedTools();
    const agent = stepAgent({
      provider: inlineProvider(sameCall(5, 'I will stop repeating myself')),
      tools,
      guard: true,
    });
    const events: AgentEvent[] = [];
    agent.subscribe((event) => events.push(event));
    const result = await agent.prompt('loop').result();
    expect(runs.read_file).toBe(3);
    const results = resultsOf(result.messages);
    expect(results.map((message) => message.isError)).toEqual([false, false, false, true, true]);
    expect(results[3]?.content).toMatch(
      /refused by the guard: this is call 4 in a row of 'read_file' with the same input/,
    );
    expect(events.filter((event) => event.type === 'guard').map((event) => event.action)).toEqual([
      'block',
      'block',
    ]);
    expect(result.terminateReason).toBe('completed');
  });

  it('ends the run at the 6th identical call with a GuardError, and the history stays valid', async () => {
    const { runs, tools } = countedTools();
    const provider = inlineProvider(sameCall(8));
    const agent = stepAgent({ provider, tools, guard: true });
    const result = await agent.prompt('loop').result();
    expect(result.terminateReason).toBe('error');
    expect(result.error).toBeInstanceOf(GuardError);
    expect(result.error?.code).toBe('guard_killed');
    expect(result.error?.message).toMatch(/'read_file' was called 6 times in a row with the same input/);
    expect(provider.requests).toHaveLength(6);
    expect(runs.read_file).toBe(3);
    expect(historyProblems(result.messages)).toEqual([]);
  });

  it('a different call in between starts the count again', async () => {
    const { runs, tools } = countedTools();
    const agent = stepAgent({
      provider: inlineProvider([
        ...sameCall(3),
        [toolDone('read_file', { path: 'y' }, 'other')],
        ...sameCall(3, 'done').map((reply, index) =>
          index < 3 ? [toolDone('read_file', { path: 'x' }, `again${index}`)] : reply,
        ),
      ]),
      tools,
      guard: true,
    });
    const result = await agent.prompt('go').result();
    expect(runs.read_file).toBe(7);
    expect(result.terminateReason).toBe('completed');
  });

  it('warn emits a guard event and stops nothing; pause stops with await_user like an approval', async () => {
    const { runs, tools } = countedTools();
    const warned = stepAgent({
      provider: inlineProvider([[toolDone('read_file', { path: 'x' })], [textDone('ok')]]),
      tools,
      guard: {
        name: 'watch',
        check: (observation) =>
          observation.kind === 'tool_call' ? { action: 'warn', reason: 'watching' } : 'ok',
      },
    });
    const events: AgentEvent[] = [];
    warned.subscribe((event) => events.push(event));
    expect((await warned.prompt('go').result()).terminateReason).toBe('completed');
    expect(events.find((event) => event.type === 'guard')).toMatchObject({
      action: 'warn',
      reason: 'watching',
    });
    expect(runs.read_file).toBe(1);

    const paused = stepAgent({
      provider: inlineProvider([[toolDone('read_file', { path: 'x' }, 'p1')], [textDone('ok')]]),
      tools,
      guard: { name: 'careful', check: (observation) => (observation.kind === 'tool_call' ? 'pause' : 'ok') },
    });
    const result = await paused.prompt('go').result();
    expect(result.terminateReason).toBe('await_user');
    expect(result.pendingApprovals?.[0]).toMatchObject({
      toolCallId: 'p1',
      reason: "the guard asks: guard 'careful' says 'pause'",
    });
    const [approval] = paused.pendingApprovals;
    const resumed = await paused
      .resume({
        decisions: [{ toolCallId: 'p1', inputHash: approval?.inputHash as string, decision: 'allow' }],
      })
      .result();
    expect(resumed.terminateReason).toBe('completed');
    expect(runs.read_file).toBe(2);
  });

  it('kill before a model call, e.g. past the wall-clock budget, ends the run with a GuardError', async () => {
    const provider = inlineProvider([[textDone('never')]]);
    const agent = stepAgent({ provider, guard: defaultGuard({ maxDurationMs: 0 }) });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('error');
    expect(result.error?.code).toBe('guard_killed');
    expect(provider.requests).toHaveLength(0);
  });
});

describe('token budget (limits.maxTokens)', () => {
  it('stops before a model call whose input alone exceeds what is left, with a typed max_tokens error', async () => {
    const provider = inlineProvider([[textDone('never sent')]]);
    const agent = stepAgent({ provider, limits: { maxTokens: 100 } });
    const result = await agent.prompt('x'.repeat(1000)).result();
    expect(result.terminateReason).toBe('max_tokens');
    expect(result.error).toBeInstanceOf(RunStoppedError);
    expect(result.error?.code).toBe('max_tokens');
    expect(result.error?.message).toMatch(
      /its input alone is about 250 tokens, and only 100 of limits.maxTokens \(100\) are left/,
    );
    expect(provider.requests).toHaveLength(0);
  });

  it("uses the provider's countTokens when it has one, and sends a request that fits", async () => {
    const provider = Object.assign(inlineProvider([[textDone('fits')]]), { countTokens: async () => 40 });
    const agent = stepAgent({ provider, limits: { maxTokens: 50 } });
    const result = await agent.prompt('x'.repeat(1000)).result();
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('fits');
  });
});
