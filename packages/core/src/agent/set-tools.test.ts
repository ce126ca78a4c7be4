import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../index.js';
import { inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { stepAgent } from '../test-support/step-agent.js';

function named(name: string) {
  return defineTool({ name, description: `tool ${name}`, parameters: z.object({}), execute: () => name });
}

function offered(provider: ReturnType<typeof inlineProvider>): (string[] | undefined)[] {
  return provider.requests.map((request) => request.tools?.map((tool) => tool.name));
}

describe('setTools', () => {
  it('a change made while the run prepares its tools reaches the next prompt', async () => {
    const provider = inlineProvider([[textDone('one')], [textDone('two')]]);
    const agent = stepAgent({ provider, tools: [named('old')] });
    const first = agent.prompt('first');
    agent.setTools([named('new')]);
    await first.result();
    await agent.prompt('second').result();
    // The first run had not offered any tool yet, so it prepares the current list too.
    expect(offered(provider)).toEqual([['new'], ['new']]);
    expect(agent.tools.map((tool) => tool.name)).toEqual(['new']);
  });

  it('a change made by a listener during a tool call reaches the next prompt, passed unbound', async () => {
    const provider = inlineProvider([[toolDone('old', {})], [textDone('one')], [textDone('two')]]);
    const agent = stepAgent({ provider, tools: [named('old')] });
    // The pattern tools-mcp documents: its onToolsChanged callback is agent.setTools itself.
    const onToolsChanged = agent.setTools;
    agent.subscribe((event) => event.type === 'tool_call_end' && onToolsChanged([named('new')]));
    await agent.prompt('first').result();
    await agent.prompt('second').result();
    expect(offered(provider)).toEqual([['old'], ['old'], ['new']]);
  });
});
