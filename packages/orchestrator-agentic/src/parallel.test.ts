import { Agent, type AnyTool, defineTool, type Provider } from '@agent-core/core';
import { checkValidHistory } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentic } from './index.js';
import { agenticAgent } from './test-support/agentic-agent.js';

function gatedTool() {
  let inFlight = 0;
  let maxInFlight = 0;
  const waiting: (() => void)[] = [];
  const finished: number[] = [];
  const tool = defineTool({
    name: 'job',
    description: 'a job that finishes when released',
    parameters: z.object({ n: z.number() }),
    execute: async ({ n }) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise<void>((resolve) => waiting.push(resolve));
      inFlight--;
      finished.push(n);
      return `job ${n} done`;
    },
  });
  // Releases the waiting jobs newest first, so they finish in reverse order of their start.
  const release = () => {
    while (waiting.length > 0) waiting.pop()?.();
  };
  return { tool, release, stats: () => ({ maxInFlight, finished }) };
}

function jobCalls(count: number) {
  return Array.from({ length: count }, (_, index) => ({ name: 'job', input: { n: index } }));
}

/** An agent on agentic with parallel tool execution and the one tool `tool`. */
function parallelAgent(provider: Provider, tool: AnyTool): Agent {
  return new Agent({
    provider,
    model: 'm',
    tools: [tool],
    orchestrator: agentic({ toolExecution: 'parallel' }),
  });
}

describe('parallel tool execution', () => {
  it('runs calls concurrently and appends results in call order', async () => {
    const { tool, release, stats } = gatedTool();
    const provider = mock({ turns: [{ toolCalls: jobCalls(4) }, { text: 'all done' }] });
    const agent = parallelAgent(provider, tool);
    let started = 0;
    agent.subscribe((event) => {
      if (event.type === 'tool_call_start' && ++started === 4) setImmediate(release);
    });
    const result = await agent.prompt('go').result();
    expect(stats().maxInFlight).toBe(4);
    expect(stats().finished).toEqual([3, 2, 1, 0]);
    expect(result.toolCalls.map((call) => call.result)).toEqual([
      'job 0 done',
      'job 1 done',
      'job 2 done',
      'job 3 done',
    ]);
    checkValidHistory(result.messages);
    expect(result.text).toBe('all done');
  });

  it('keeps to maxParallelTools', async () => {
    const { tool, release, stats } = gatedTool();
    const provider = mock({ turns: [{ toolCalls: jobCalls(5) }, { text: 'ok' }] });
    const agent = agenticAgent({ provider, tools: [tool], toolExecution: 'parallel', maxParallelTools: 2 });
    agent.subscribe((event) => {
      if (event.type === 'tool_call_start') setImmediate(release);
    });
    const result = await agent.prompt('go').result();
    expect(stats().maxInFlight).toBe(2);
    expect(result.toolCalls.map((call) => call.input.n)).toEqual([0, 1, 2, 3, 4]);
    checkValidHistory(result.messages);
  });

  it('an abort mid-way still answers every call, in order', async () => {
    const { tool } = gatedTool();
    const provider = mock({ turns: [{ toolCalls: jobCalls(3) }] });
    const agent = parallelAgent(provider, tool);
    agent.subscribe((event) => {
      if (event.type === 'tool_call_start' && event.toolCall.input.n === 2) setImmediate(() => agent.abort());
    });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('aborted');
    checkValidHistory(result.messages);
    expect(result.toolCalls.every((call) => call.isError)).toBe(true);
  });

  it('polls steering once after the batch', async () => {
    const { tool, release } = gatedTool();
    const provider = mock({ turns: [{ toolCalls: jobCalls(2) }, { text: 'heard you' }] });
    const agent = parallelAgent(provider, tool);
    agent.subscribe((event) => {
      if (event.type === 'tool_call_start' && event.toolCall.input.n === 1) {
        agent.steer('note this');
        setImmediate(release);
      }
    });
    const result = await agent.prompt('go').result();
    expect(result.toolCalls.map((call) => call.isError)).toEqual([false, false]);
    expect(provider.requests[1]?.messages.at(-1)).toEqual({ role: 'user', content: 'note this' });
  });
});
