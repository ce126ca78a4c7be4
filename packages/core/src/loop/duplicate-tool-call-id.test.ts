import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, historyProblems, MemorySessionStore, SessionManager } from '../index.js';
import { inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { stepAgent } from '../test-support/step-agent.js';

function counter() {
  let runs = 0;
  const tool = defineTool({
    name: 'count',
    description: 'counts',
    parameters: z.object({}),
    execute: () => String(++runs),
  });
  return { tool, runs: () => runs };
}

describe('a reply whose tool call reuses an id of the history', () => {
  it('is refused with a clear error: nothing appended, no tool run, the history still valid', async () => {
    const { tool, runs } = counter();
    const provider = inlineProvider([
      [toolDone('count', {}, 'same')],
      [textDone('one')],
      // A provider that numbers its calls per process gives the first id again.
      [toolDone('count', {}, 'same')],
    ]);
    const agent = stepAgent({ provider, tools: [tool] });
    expect((await agent.prompt('first').result()).terminateReason).toBe('completed');
    const before = agent.messages.length;
    const second = await agent.prompt('second').result();
    expect(second.terminateReason).toBe('error');
    expect(second.error?.code).toBe('duplicate_tool_call_id');
    expect(second.error?.message).toMatch(
      /tool call with id 'same', which an earlier call of this history already has/,
    );
    expect(runs()).toBe(1);
    // Only the prompt joined the history; the next request is one a provider accepts.
    expect(agent.messages.length).toBe(before + 1);
    expect(agent.messages.at(-1)).toEqual({ role: 'user', content: 'second' });
    expect(historyProblems(agent.messages)).toEqual([]);
  });

  it('is refused in a session continued in another process, whose history came from the store', async () => {
    const { tool } = counter();
    const store = new MemorySessionStore();
    const open = (replies: Parameters<typeof inlineProvider>[0]) =>
      new SessionManager({
        store,
        agentOptions: () => ({
          provider: inlineProvider(replies),
          model: 'm',
          tools: [tool],
          orchestrator: stepOrchestrator,
        }),
      });
    const session = await open([[toolDone('count', {}, 'mock_call_1')], [textDone('done')]]).create();
    await session.prompt('first').result();
    const again = await open([[toolDone('count', {}, 'mock_call_1')]]).get(session.id);
    const result = await again.prompt('second').result();
    expect(result.error?.code).toBe('duplicate_tool_call_id');
    const reloaded = await open([]).get(session.id);
    expect(historyProblems(reloaded.messages)).toEqual([]);
  });

  it('ids made unique by the run are kept: a reply after reset() may use an id the cleared history had', async () => {
    const { tool } = counter();
    const provider = inlineProvider([
      [toolDone('count', {}, 'x')],
      [textDone('a')],
      [toolDone('count', {}, 'x')],
      [textDone('b')],
    ]);
    const agent = stepAgent({ provider, tools: [tool] });
    await agent.prompt('one').result();
    agent.reset();
    expect((await agent.prompt('two').result()).terminateReason).toBe('completed');
  });
});
