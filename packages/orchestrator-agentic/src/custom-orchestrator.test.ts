import { Agent, type Orchestrator, toolCallsOf } from '@agent-core/core';
import { checkValidHistory } from '@agent-core/core/testing';
import { calculator } from '@agent-core/test-support';
import { mock } from '@agent-core/provider-mock';
import { expect, it } from 'vitest';

// A complete orchestrator in a few lines: run every tool call at once, answer in at most three turns.
const eager: Orchestrator = {
  name: 'eager',
  async run(ctx) {
    for (;;) {
      const stop = ctx.nextTurn();
      if (stop) return { reason: stop };
      const response = await ctx.callModel();
      if (!response.ok) return { reason: response.reason, error: response.error };
      const calls = toolCallsOf(response.message);
      if (calls.length > 0) await ctx.executeTools(calls);
      ctx.endTurn(response.message);
      if (calls.length === 0 && ctx.pollFollowUp().length === 0) return { reason: 'completed' };
    }
  },
};

it('a custom orchestrator drives the same agent through the contract alone', async () => {
  const provider = mock({
    turns: [
      {
        toolCalls: [
          { name: 'calculator', input: { expression: '15*3' } },
          { name: 'calculator', input: { expression: '10+5' } },
        ],
      },
      { text: '45 and 15' },
    ],
  });
  const agent = new Agent({
    provider,
    model: 'm',
    tools: [calculator],
    orchestrator: eager,
    limits: { maxTurns: 3 },
  });
  const run = agent.prompt('Calculate 15*3 and 10+5');
  const types: string[] = [];
  for await (const event of run) types.push(event.type);
  const result = await run.result();
  expect(result.text).toBe('45 and 15');
  expect(result.toolCalls.map((call) => call.result)).toEqual(['45', '15']);
  expect(types.filter((type) => type.startsWith('tool_call'))).toEqual([
    'tool_call_start',
    'tool_call_start',
    'tool_call_end',
    'tool_call_end',
  ]);
  checkValidHistory(result.messages);
});
