import { describe, expect, it, vi } from 'vitest';
import {
  Agent,
  type AgentEvent,
  type AgentEventOf,
  type AgentResult,
  historyProblems,
  type Orchestrator,
  type ToolResultMessage,
} from '../index.js';
import { inlineProvider, textDone } from '../test-support/inline-provider.js';
import { gated, hanging, reply } from '../test-support/replies.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { toolsOrchestrator } from '../test-support/tools-orchestrator.js';
import {
  type AgentDefinition,
  AgentExecutor,
  AgentRegistry,
  asTool,
  defineAgent,
  type ExecuteOptions,
} from './index.js';
import { stepAgent } from '../test-support/step-agent.js';

const executor = new AgentExecutor({ registry: new AgentRegistry(), orchestrator: stepOrchestrator });

function child(
  name: string,
  provider: ReturnType<typeof inlineProvider>,
  extra: Partial<AgentDefinition> = {},
) {
  return defineAgent({
    name,
    description: `The ${name}`,
    promptConfig: { systemPrompt: `You are the ${name}. Topic: \${topic}` },
    modelConfig: { provider, model: 'm' },
    inputConfig: { inputs: { topic: { type: 'string' } } },
    ...extra,
  });
}

function subagentEvents(events: readonly AgentEvent[], agent: string): AgentEventOf<'subagent'>[] {
  return events.filter(
    (event): event is AgentEventOf<'subagent'> => event.type === 'subagent' && event.agent === agent,
  );
}

/** Records the results of the runs it executes, so a test can see how children ended. */
class RecordingExecutor extends AgentExecutor {
  readonly results: AgentResult[] = [];
  override execute<TOutput>(
    definition: AgentDefinition<TOutput>,
    options?: ExecuteOptions,
  ): Promise<AgentResult<TOutput>>;
  override execute(name: string, options?: ExecuteOptions): Promise<AgentResult<unknown>>;
  override async execute(
    target: AgentDefinition<unknown> | string,
    options?: ExecuteOptions,
  ): Promise<AgentResult<unknown>> {
    const result = await super.execute(target as string, options);
    this.results.push(result);
    return result;
  }
}

describe('asTool: a parent calling two subagents in parallel', () => {
  it('forwards nested, tagged events in order per child, sums usage with a per-agent breakdown', async () => {
    let releaseResearcher: () => void = () => {};
    const researcherGate = new Promise<void>((resolve) => {
      releaseResearcher = resolve;
    });
    const researcherProvider = inlineProvider([
      gated(researcherGate, reply({ text: 'research notes' }, { input: 10, output: 5 })),
    ]);
    const criticProvider = inlineProvider([
      async function* () {
        // The critic answers while the researcher is still waiting, so their events interleave.
        try {
          yield reply({ text: 'critique' }, { input: 7, output: 3 });
        } finally {
          releaseResearcher();
        }
      },
    ]);
    const parentProvider = inlineProvider([
      [
        reply(
          {
            calls: [
              { name: 'researcher', input: { topic: 'tides' }, id: 'r1' },
              { name: 'critic', input: { topic: 'tides' }, id: 'c1' },
            ],
          },
          { input: 100, output: 20 },
        ),
      ],
      [reply({ text: 'final answer' }, { input: 200, output: 30 })],
    ]);
    const lead = defineAgent({
      name: 'lead',
      description: 'Leads',
      promptConfig: {},
      modelConfig: { provider: parentProvider, model: 'm' },
      runConfig: { orchestrator: toolsOrchestrator },
      toolConfig: {
        tools: [
          asTool(child('researcher', researcherProvider), { executor }),
          asTool(child('critic', criticProvider), { executor }),
        ],
      },
    });
    const events: AgentEvent[] = [];
    const result = await executor.execute(lead, { onActivity: (event) => events.push(event) });

    expect(result.terminateReason).toBe('completed');
    expect(result.text).toBe('final answer');
    expect(result.toolCalls.map((call) => [call.name, call.result, call.isError])).toEqual([
      ['researcher', 'research notes', false],
      ['critic', 'critique', false],
    ]);
    for (const [agent, toolCallId] of [
      ['researcher', 'r1'],
      ['critic', 'c1'],
    ] as const) {
      const wrapped = subagentEvents(events, agent);
      const inner = wrapped.map((event) => event.event);
      expect(inner[0]?.type).toBe('agent_start');
      expect(inner.at(-1)?.type).toBe('agent_end');
      expect(inner.map((event) => event.seq)).toEqual(inner.map((_, index) => index));
      expect(new Set(wrapped.map((event) => event.childRunId)).size).toBe(1);
      expect(wrapped[0]?.childRunId).toBe(inner[0]?.runId);
      expect(wrapped.every((event) => event.depth === 1 && event.toolCallId === toolCallId)).toBe(true);
      expect(wrapped.every((event) => event.runId === result.runId)).toBe(true);
    }
    // Both children started before the researcher finished: their events interleave in the parent's stream.
    const order = events.filter((event) => event.type === 'subagent').map((event) => event.agent);
    expect(order.indexOf('critic')).toBeLessThan(order.lastIndexOf('researcher'));
    expect(order.lastIndexOf('critic')).toBeLessThan(order.lastIndexOf('researcher'));
    // Parent seqs stay strictly increasing with the wrapped events among them.
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));

    expect(result.usage).toMatchObject({ input: 317, output: 58 });
    expect(result.usageByAgent).toEqual({
      lead: { input: 300, output: 50, cacheRead: 0, cacheWrite: 0 },
      researcher: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
      critic: { input: 7, output: 3, cacheRead: 0, cacheWrite: 0 },
    });
    // Each child got only its own tools: none, not the parent's subagent tools.
    expect(researcherProvider.requests[0]?.tools).toBeUndefined();
    expect(researcherProvider.requests[0]?.system).toBe('You are the researcher. Topic: tides');
    expect(historyProblems(result.messages)).toEqual([]);
  });

  it("stops both children at once when the parent's run is aborted", async () => {
    const started: string[] = [];
    const controller = new AbortController();
    const onStart = (name: string) => () => {
      started.push(name);
      if (started.length === 2) controller.abort();
    };
    const researcherProvider = inlineProvider([hanging(onStart('researcher'))]);
    const criticProvider = inlineProvider([hanging(onStart('critic'))]);
    const recording = new RecordingExecutor({
      registry: new AgentRegistry(),
      orchestrator: stepOrchestrator,
    });
    const parentProvider = inlineProvider([
      [
        reply({
          calls: [
            { name: 'researcher', input: { topic: 'a' }, id: 'r1' },
            { name: 'critic', input: { topic: 'b' }, id: 'c1' },
          ],
        }),
      ],
    ]);
    const parent = new Agent({
      provider: parentProvider,
      model: 'm',
      orchestrator: toolsOrchestrator,
      tools: [
        asTool(child('researcher', researcherProvider), { executor: recording }),
        asTool(child('critic', criticProvider), { executor: recording }),
      ],
    });
    const run = parent.prompt('go', { signal: controller.signal });
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result();

    expect(result.terminateReason).toBe('aborted');
    expect(events.at(-1)?.type).toBe('agent_end');
    expect(historyProblems(result.messages)).toEqual([]);
    await vi.waitFor(() => expect(recording.results).toHaveLength(2));
    expect(recording.results.map((child) => child.terminateReason)).toEqual(['aborted', 'aborted']);
    // Nothing reached the parent's stream after its agent_end.
    expect(events.filter((event) => event.type === 'agent_end')).toHaveLength(1);
  });
});

describe('asTool: limits and seams', () => {
  it('refuses to nest deeper than maxDepth with a clear error result, and the runs go on', async () => {
    const provider = inlineProvider([
      [reply({ calls: [{ name: 'nested', input: { topic: 'x' }, id: 'd0' }] })],
      [reply({ calls: [{ name: 'nested', input: { topic: 'x' }, id: 'd1' }] })],
      [reply({ calls: [{ name: 'nested', input: { topic: 'x' }, id: 'd2' }] })],
      [reply({ calls: [{ name: 'nested', input: { topic: 'x' }, id: 'd3' }] })],
      [textDone('bottom')],
      [textDone('level 2')],
      [textDone('level 1')],
      [textDone('top')],
    ]);
    const nested = child('nested', provider);
    nested.toolConfig = { tools: [asTool(nested, { executor })] };
    const events: AgentEvent[] = [];
    const result = await executor.execute(nested, {
      inputs: { topic: 'x' },
      onActivity: (event) => events.push(event),
    });
    expect(result.text).toBe('top');
    const refusal = provider.requests[4]?.messages.at(-1) as ToolResultMessage;
    expect(refusal).toMatchObject({ role: 'toolResult', toolCallId: 'd3', isError: true });
    expect(String(refusal.content)).toMatch(
      /Subagent 'nested' was not run: it would be nested 4 deep and the limit is 3.*nested > nested > nested > nested > nested/,
    );
    // The root sees depth 1 wrapping depth 2 wrapping depth 3.
    const depth1 = events.find(
      (event): event is AgentEventOf<'subagent'> =>
        event.type === 'subagent' && event.event.type === 'subagent',
    );
    expect(depth1?.depth).toBe(1);
    const depth2 = depth1?.event as AgentEventOf<'subagent'>;
    expect(depth2.depth).toBe(2);
    expect(result.usageByAgent).toBeDefined();
  });

  it("holds the child's own limits and reports how it ended as an error result", async () => {
    const childProvider = inlineProvider([
      [reply({ calls: [{ name: 'missing_tool', input: {} }] })],
      [textDone('never')],
    ]);
    const limited = child('limited', childProvider, { runConfig: { maxTurns: 1 } });
    const parent = stepAgent({
      provider: inlineProvider([
        [reply({ calls: [{ name: 'limited', input: { topic: 't' } }] })],
        [textDone('ok')],
      ]),
      tools: [asTool(limited, { executor })],
    });
    const result = await parent.prompt('go').result();
    expect(childProvider.requests).toHaveLength(1);
    expect(result.toolCalls[0]).toMatchObject({ name: 'limited', isError: true });
    expect(String(result.toolCalls[0]?.result)).toMatch(/Subagent 'limited' ended with max_turns/);
    expect(result.text).toBe('ok');
  });

  it('returns the typed output as JSON to the parent, and refuses bad input before the child runs', async () => {
    const { z } = await import('zod');
    const childProvider = inlineProvider([
      [reply({ calls: [{ name: 'complete_task', input: { score: 9 } }] })],
    ]);
    const scorer = child('scorer', childProvider, {
      outputConfig: { schema: z.object({ score: z.number() }) },
    });
    const parentProvider = inlineProvider([
      [reply({ calls: [{ name: 'scorer', input: { topic: 5 }, id: 'bad' }] })],
      [reply({ calls: [{ name: 'scorer', input: { topic: 'ok' }, id: 'good' }] })],
      [textDone('done')],
    ]);
    const parent = stepAgent({ provider: parentProvider, tools: [asTool(scorer, { executor })] });
    const result = await parent.prompt('go').result();
    expect(result.toolCalls.map((call) => [call.isError, call.result])).toEqual([
      [true, expect.stringMatching(/Invalid input for tool 'scorer': input\.topic/)],
      [false, '{"score":9}'],
    ]);
    expect(parentProvider.requests[0]?.tools?.[0]).toMatchObject({
      name: 'scorer',
      description: 'The scorer',
      parameters: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
    });
    expect(childProvider.requests).toHaveLength(1);
  });

  it('turns a child run that ends await_user into an error result naming the inner agent (governance seam)', async () => {
    const pausing: Orchestrator = { name: 'pausing', run: async () => ({ reason: 'await_user' }) };
    const approver = child('approver', inlineProvider([]), { runConfig: { orchestrator: pausing } });
    const parent = stepAgent({
      provider: inlineProvider([
        [reply({ calls: [{ name: 'approver', input: { topic: 't' } }] })],
        [textDone('ok')],
      ]),
      tools: [asTool(approver, { executor })],
    });
    const result = await parent.prompt('go').result();
    expect(result.toolCalls[0]?.isError).toBe(true);
    expect(String(result.toolCalls[0]?.result)).toMatch(
      /Subagent 'approver' is waiting for a person's approval \(agents: approver\)/,
    );
  });
});
