import { checkValidHistory } from '@agent-core/core/testing';
import { calculator } from '@agent-core/test-support';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { agenticAgent } from './test-support/agentic-agent.js';
import { abortAtTextDelta } from '@agent-core/test-support/agent-events';

// Aborts that need a tool or a model of their own; an abort at every event of a run, sequential
// and parallel, is the conformance kit's (conformance.test.ts).

describe('abort', () => {
  it('keeps the text streamed before an abort, without its tool calls', async () => {
    const provider = mock({
      turns: [{ text: 'abcdefghij', toolCalls: [{ name: 'calculator', input: { expression: '1+1' } }] }],
      chunkSize: 2,
    });
    const agent = agenticAgent({ provider, tools: [calculator] });
    abortAtTextDelta(agent, 2);
    const result = await agent.prompt('hi').result();
    expect(result.terminateReason).toBe('aborted');
    expect(result.messages.at(-1)).toMatchObject({
      role: 'assistant',
      stopReason: 'aborted',
      content: [{ type: 'text', text: 'abcd' }],
    });
    checkValidHistory(result.messages);
  });

  it('a listener that throws does not break the run', async () => {
    const agent = agenticAgent({ provider: mock({ turns: [{ text: 'fine' }] }) });
    agent.subscribe(() => {
      throw new Error('listener bug');
    });
    expect((await agent.prompt('hi').result()).text).toBe('fine');
  });
});
