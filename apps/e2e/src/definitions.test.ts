import { Agent, type AgentEvent, historyProblems } from '@agent-core/core';
import { AgentExecutor, AgentRegistry, asTool, defineAgent } from '@agent-core/core/definitions';
import { agentic } from '@agent-core/orchestrator-agentic';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';

// Definitions on the default tool loop and the scripted mock provider, as users run them.

const report = z.object({ summary: z.string(), files: z.array(z.string()) });

describe('definitions on agentic + provider-mock', () => {
  it('yields typed output after an invalid attempt and a text answer (grace turn)', async () => {
    const provider = mock({
      turns: [
        { toolCalls: [{ name: 'complete_task', input: { summary: 1 }, id: 'bad' }] },
        { text: 'Here is the report in prose.' },
        { toolCalls: [{ name: 'complete_task', input: { summary: 'ok', files: ['a.ts'] }, id: 'good' }] },
      ],
    });
    const definition = defineAgent({
      name: 'reporter',
      description: 'Reports',
      promptConfig: { systemPrompt: 'Report on ${path}.' },
      modelConfig: { provider, model: 'mock' },
      runConfig: { orchestrator: agentic() },
      inputConfig: { inputs: { path: { type: 'string' } } },
      outputConfig: { schema: report },
    });
    const executor = new AgentExecutor({ registry: new AgentRegistry([definition]) });
    const result = await executor.execute(definition, { inputs: { path: 'src' } });
    expectTypeOf(result.output).toEqualTypeOf<{ summary: string; files: string[] } | undefined>();
    expect(result.outputValid).toBe(true);
    expect(result.output?.files).toEqual(['a.ts']);
    expect(provider.requests).toHaveLength(3);
    expect(provider.requests[0]?.system).toBe('Report on src.');
    expect(historyProblems(result.messages)).toEqual([]);
  });

  it('runs two subagents in parallel under an agentic parent with tagged events and summed usage', async () => {
    const child = (name: string) =>
      defineAgent({
        name,
        description: `The ${name}`,
        promptConfig: { query: 'Look at ${topic}' },
        modelConfig: {
          provider: mock({ turns: [{ text: `${name} says hi`, usage: { input: 5, output: 2 } }] }),
          model: 'mock',
        },
        runConfig: { orchestrator: agentic() },
        inputConfig: { inputs: { topic: { type: 'string' } } },
      });
    const executor = new AgentExecutor({ registry: new AgentRegistry() });
    const parent = new Agent({
      name: 'lead',
      provider: mock({
        turns: [
          {
            toolCalls: [
              { name: 'alpha', input: { topic: 'x' }, id: 'a' },
              { name: 'beta', input: { topic: 'y' }, id: 'b' },
            ],
            usage: { input: 50, output: 10 },
          },
          { text: 'both done', usage: { input: 60, output: 5 } },
        ],
      }),
      model: 'mock',
      orchestrator: agentic({ toolExecution: 'parallel' }),
      tools: [asTool(child('alpha'), { executor }), asTool(child('beta'), { executor })],
    });
    const run = parent.prompt('go');
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result();
    expect(result.text).toBe('both done');
    for (const name of ['alpha', 'beta']) {
      const inner = events.flatMap((event) =>
        event.type === 'subagent' && event.agent === name ? [event.event] : [],
      );
      expect(inner[0]?.type).toBe('agent_start');
      expect(inner.at(-1)?.type).toBe('agent_end');
    }
    expect(result.usageByAgent).toEqual({
      lead: { input: 110, output: 15, cacheRead: 0, cacheWrite: 0 },
      alpha: { input: 5, output: 2, cacheRead: 0, cacheWrite: 0 },
      beta: { input: 5, output: 2, cacheRead: 0, cacheWrite: 0 },
    });
    expect(result.usage).toMatchObject({ input: 120, output: 19 });
  });
});
