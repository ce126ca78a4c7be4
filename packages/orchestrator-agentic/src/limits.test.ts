import { Agent, defineTool } from '@agent-core/core';
import { checkValidHistory } from '@agent-core/core/testing';
import { calculator } from '@agent-core/test-support';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentic } from './index.js';
import { agenticAgent } from './test-support/agentic-agent.js';

const forever = () => ({
  toolCalls: [{ name: 'calculator', input: { expression: '1+1' } }],
  usage: { input: 100, output: 10 },
});

describe('limits', () => {
  it('maxTurns ends with max_turns, a clear text, the history and usage, and the run can be continued', async () => {
    const provider = mock({ turns: (_, call) => (call < 3 ? forever() : { text: 'done now' }) });
    const agent = agenticAgent({ provider, tools: [calculator], limits: { maxTurns: 3 } });
    const result = await agent.prompt('loop').result();
    expect(result.terminateReason).toBe('max_turns');
    expect(result.turns).toBe(3);
    expect(result.text).toMatch(/limit of 3 turns \(limits\.maxTurns\)/);
    expect(result.toolCalls).toHaveLength(3);
    expect(result.usage.input).toBe(300);
    checkValidHistory(result.messages);
    const next = await agent.prompt('go on').result();
    expect(next.terminateReason).toBe('completed');
    expect(next.text).toBe('done now');
  });

  it('defaults maxTurns to 25', async () => {
    const agent = agenticAgent({ provider: mock({ turns: forever }), tools: [calculator] });
    const result = await agent.prompt('loop').result();
    expect(result.terminateReason).toBe('max_turns');
    expect(result.turns).toBe(25);
  });

  it('timeoutMs ends a run stuck in a tool with timeout and answers the call', async () => {
    const stuck = defineTool({
      name: 'stuck',
      description: '',
      parameters: z.object({}),
      execute: () => new Promise<string>(() => {}),
    });
    const agent = agenticAgent({
      provider: mock({ turns: [{ toolCalls: [{ name: 'stuck' }] }] }),
      tools: [stuck],
      limits: { timeoutMs: 30 },
    });
    const result = await agent.prompt('hi').result();
    expect(result.terminateReason).toBe('timeout');
    expect(result.toolCalls[0]?.result).toBe("Tool 'stuck' was stopped: the run was timed out.");
    checkValidHistory(result.messages);
  });

  it('maxTokens ends the run with max_tokens once the budget is spent', async () => {
    const provider = mock({ turns: forever });
    const agent = agenticAgent({ provider, tools: [calculator], limits: { maxTokens: 200 } });
    const result = await agent.prompt('loop').result();
    expect(result.terminateReason).toBe('max_tokens');
    expect(provider.calls).toBe(2);
    expect(result.usage.input + result.usage.output).toBeGreaterThanOrEqual(200);
    checkValidHistory(result.messages);
  });

  it('an answer cut off by the output limit ends with output_limit, not the budget reason', async () => {
    const agent = agenticAgent({
      provider: mock({ turns: [{ text: 'half an ans', stopReason: 'max_tokens' }] }),
    });
    const result = await agent.prompt('hi').result();
    expect(result.terminateReason).toBe('output_limit');
    expect(result.text).toBe('half an ans');
  });

  it('an empty response ends the turn gracefully without an empty message in the history', async () => {
    const agent = new Agent({ provider: mock({ turns: [{}] }), model: 'm', orchestrator: agentic() });
    const result = await agent.prompt('hi').result();
    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('');
    expect(result.messages).toEqual([{ role: 'user', content: 'hi' }]);
  });
});

describe('model failures', () => {
  it('retries a retryable error and then answers, reporting the retry', async () => {
    const provider = mock({
      turns: [{ error: { kind: 'overloaded', afterChunks: 1 }, text: 'partial text' }, { text: 'ok' }],
    });
    const agent = agenticAgent({ provider, retry: { baseDelayMs: 1 } });
    const events: string[] = [];
    agent.subscribe((event) => {
      if (event.type === 'retry')
        events.push(`retry ${event.attempt} ${event.error.kind} ${event.discardedPartial}`);
    });
    const result = await agent.prompt('hi').result();
    expect(result.text).toBe('ok');
    expect(events).toEqual(['retry 1 overloaded true']);
  });

  it('ends with error, a clear message and a valid history when the model keeps failing', async () => {
    const provider = mock({
      turns: [
        { toolCalls: [{ name: 'calculator', input: { expression: '2*2' } }] },
        { error: { kind: 'invalid_request', message: 'bad request' } },
      ],
    });
    const agent = agenticAgent({ provider, tools: [calculator] });
    const events: string[] = [];
    agent.subscribe((event) => events.push(event.type));
    const result = await agent.prompt('hi').result();
    expect(result.terminateReason).toBe('error');
    expect(result.error?.message).toBe('bad request');
    expect(provider.calls).toBe(2);
    expect(events.slice(-2)).toEqual(['error', 'agent_end']);
    checkValidHistory(result.messages);
  });
});
