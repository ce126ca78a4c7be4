import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, defineTool, HookError, policies } from '../index.js';
import { inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { countedTools } from './test-support/governed-tools.js';
import { stepAgent } from '../test-support/step-agent.js';

describe('hooks.beforeRun', () => {
  it('changes the model, tools, system prompt and policy for one run only, hooks composed in order', async () => {
    const { runs, read } = countedTools();
    const search = defineTool({
      name: 'search',
      description: 'searches',
      risk: 'network',
      parameters: z.object({ query: z.string() }),
      execute: ({ query }) => `found ${query}`,
    });
    const provider = inlineProvider([
      [toolDone('search', { query: 'docs' })],
      [textDone('first')],
      [textDone('second')],
    ]);
    let runsSeen = 0;
    const agent = new Agent({
      provider,
      model: 'base-model',
      systemPrompt: 'Base prompt.',
      tools: [read],
      policy: policies.strict,
      hooks: {
        beforeRun: [
          (context) => {
            runsSeen++;
            if (runsSeen > 1) return;
            context.model = 'big-model';
            context.tools = [...context.tools, search];
            context.systemPrompt = 'Research mode.';
          },
          (context) => {
            if (context.model === 'big-model') context.policy = policies.permissive;
          },
        ],
      },
      orchestrator: stepOrchestrator,
    });
    const first = await agent.prompt('research').result();
    expect(first.text).toBe('first');
    await agent.prompt('again').result();
    const [one, two, three] = provider.requests;
    expect([one?.model, two?.model, three?.model]).toEqual(['big-model', 'big-model', 'base-model']);
    expect(one?.system).toBe('Research mode.');
    expect(one?.tools?.map((tool) => tool.name)).toEqual(['read_file', 'search']);
    expect(three?.system).toBe('Base prompt.');
    expect(three?.tools?.map((tool) => tool.name)).toEqual(['read_file']);
    expect(first.toolCalls[0]).toMatchObject({ name: 'search', result: 'found docs', isError: false });
    expect(agent.tools.map((tool) => tool.name)).toEqual(['read_file']);
    expect(runs.read_file).toBe(0);
  });

  it('a hook that throws ends the run with a HookError before any model call', async () => {
    const provider = inlineProvider([[textDone('never')]]);
    const agent = stepAgent({
      provider,
      hooks: {
        beforeRun: () => {
          throw new Error('no budget today');
        },
      },
    });
    const result = await agent.prompt('go').result();
    expect(result.terminateReason).toBe('error');
    expect(result.error).toBeInstanceOf(HookError);
    expect(result.error?.code).toBe('before_run_failed');
    expect(result.error?.message).toMatch(/before any model call: no budget today/);
    expect(provider.requests).toHaveLength(0);
  });
});

describe('hooks.beforeToolCall fails closed', () => {
  it.each([
    [
      'throws',
      () => Promise.reject(new Error('audit log down')),
      /the beforeToolCall hook failed \(audit log down\)/,
    ],
    [
      'does not answer in time',
      () => new Promise<undefined>(() => {}),
      /did not answer within 20 ms \(hookTimeoutMs\)/,
    ],
  ])('a hook that %s blocks the call', async (_name, hook, message) => {
    const { runs, tools } = countedTools();
    const agent = stepAgent({
      provider: inlineProvider([[toolDone('read_file', { path: 'x' })], [textDone('ok')]]),
      tools,
      hookTimeoutMs: 20,
      hooks: { beforeToolCall: hook },
    });
    const result = await agent.prompt('go').result();
    expect(runs.read_file).toBe(0);
    expect(result.toolCalls[0]?.result).toMatch(message);
  });
});
