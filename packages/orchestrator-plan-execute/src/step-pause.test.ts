import { Agent, defineTool, historyProblems } from '@agent-core/core';
import { type MockTurn, mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { planExecute } from './index.js';

// A call that waits for approval in a step's last allowed model call: the run pauses there, and the
// approval can still be given. The step is not counted as failed (which would re-plan and append a
// message, answering the waiting call as skipped).

const plan: MockTurn = { text: JSON.stringify({ steps: [{ title: 'deploy', instruction: 'Deploy it.' }] }) };

function pausingAgent(abortInTool = false) {
  let runs = 0;
  const deploy = defineTool({
    name: 'deploy',
    description: 'Deploys',
    risk: 'write',
    parameters: z.object({ target: z.string() }),
    execute: () => {
      runs++;
      return 'deployed';
    },
  });
  const provider = mock({
    turns: (request) => {
      const last = request.messages.at(-1);
      const text = typeof last?.content === 'string' ? last.content : '';
      if (/^Before doing anything|Write a new plan/m.test(text)) return plan;
      if (text.startsWith('All steps are done')) return { text: 'Deployed.' };
      if (request.messages.some((message) => message.role === 'toolResult'))
        return { text: 'The deploy is done.' };
      return { toolCalls: [{ name: 'deploy', input: { target: 'prod' } }] };
    },
  });
  const agent = new Agent({
    provider,
    model: 'mock',
    tools: [deploy],
    orchestrator: planExecute({ maxStepTurns: 1 }),
    policy: abortInTool ? undefined : { tools: { deploy: 'ask' } },
  });
  return { agent, provider, runs: () => runs };
}

describe('plan-execute: a pause in the last model call a step may make', () => {
  it('pauses the run with the call still waiting, and a resume runs it once, going on in the step without planning again', async () => {
    const { agent, provider, runs } = pausingAgent();
    const paused = await agent.prompt('Deploy to prod').result();
    expect(paused.terminateReason).toBe('await_user');
    expect(historyProblems(agent.messages, { allowPendingCalls: true })).toEqual([]);
    // The call is the last thing in the history: nothing answered it.
    expect(agent.messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: [{ type: 'toolCall', name: 'deploy' }],
    });
    const [approval] = agent.pendingApprovals;
    expect(approval?.toolName).toBe('deploy');

    const decision = {
      toolCallId: approval!.toolCallId,
      inputHash: approval!.inputHash,
      decision: 'allow' as const,
    };
    expect(paused.orchestratorState).toMatchObject({ next: 0, done: [], replans: 0 });
    const resumed = await agent.resume({ decisions: [decision] }).result();
    expect(resumed.terminateReason).toBe('completed');
    expect(runs()).toBe(1);
    expect(historyProblems(agent.messages)).toEqual([]);
    // The plan, the step's call that paused, then on resume the step's answer and the summary: four calls, one plan.
    expect(provider.calls).toBe(4);
    const plans = agent.messages.filter(
      (message) => typeof message.content === 'string' && message.content.startsWith('Before doing anything'),
    );
    expect(plans).toHaveLength(1);
    expect(resumed.text).toBe('Deployed.');
  });

  it('an abort in that call stops the run without re-planning', async () => {
    const { agent } = pausingAgent(true);
    agent.subscribe((event) => {
      if (event.type === 'tool_call_start') agent.abort();
    });
    const result = await agent.prompt('Deploy to prod').result();
    expect(result.terminateReason).toBe('aborted');
    const texts = agent.messages.map((message) =>
      typeof message.content === 'string' ? message.content : '',
    );
    expect(texts.some((text) => text.includes('Write a new plan'))).toBe(false);
    expect(historyProblems(agent.messages)).toEqual([]);
  });
});
