// What typed agent definitions promise, each promise as a test named after it.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentEvent,
  type AgentResult,
  defineTool,
  historyProblems,
  ProviderError,
  RegistryError,
} from '../index.js';
import { inlineProvider, textDone } from '../test-support/inline-provider.js';
import { hanging, reply } from '../test-support/replies.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { toolsOrchestrator } from '../test-support/tools-orchestrator.js';
import {
  type AgentDefinition,
  AgentExecutor,
  AgentRegistry,
  defaultAgentRegistry,
  defineAgent,
} from './index.js';

const executor = new AgentExecutor({ registry: new AgentRegistry(), orchestrator: stepOrchestrator });

function agent(provider: ReturnType<typeof inlineProvider>, extra: Partial<AgentDefinition> = {}) {
  return defineAgent({
    name: 'worker',
    description: 'Works',
    promptConfig: { systemPrompt: 'Work.' },
    modelConfig: { provider, model: 'm' },
    ...extra,
  });
}

const echo = defineTool({
  name: 'echo',
  description: 'echoes',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

describe('FR1: Agent Definition', () => {
  it('Agents can be defined using TypeScript interfaces', () => {
    const definition: AgentDefinition<{ summary: string }> = {
      name: 'typed',
      description: 'A typed agent',
      promptConfig: { systemPrompt: 'Summarize ${text}' },
      modelConfig: { provider: 'mock', model: 'm', temperature: 0.2, maxOutputTokens: 500 },
      runConfig: { maxTurns: 5, timeoutMs: 60_000 },
      toolConfig: { tools: [echo, 'fs'] },
      inputConfig: { inputs: { text: { type: 'string', description: 'the text' } } },
      outputConfig: { outputName: 'result', schema: z.object({ summary: z.string() }) },
    };
    expect(defineAgent(definition)).toBe(definition);
  });

  it('All configuration is validated at startup', () => {
    const bad = {
      ...agent(inlineProvider([])),
      name: 'bad',
      modelConfig: { provider: 'mock', model: 'm', temperature: 9 },
    };
    expect(() => defineAgent(bad)).toThrow(/Agent definition 'bad' is invalid: modelConfig\.temperature/);
    expect(() => new AgentRegistry([bad])).toThrow(/modelConfig\.temperature/);
  });

  it('Template substitution works for ${variable} syntax', async () => {
    const provider = inlineProvider([[textDone('ok')]]);
    const definition = agent(provider, {
      promptConfig: { systemPrompt: 'Review ${file} for ${focus}.', query: 'Start with ${file}.' },
      inputConfig: { inputs: { file: { type: 'string' }, focus: { type: 'string', default: 'bugs' } } },
    });
    await executor.execute(definition, { inputs: { file: 'a.ts' } });
    expect(provider.requests[0]?.system).toBe('Review a.ts for bugs.');
    expect(provider.requests[0]?.messages[0]).toEqual({ role: 'user', content: 'Start with a.ts.' });
  });
});

describe('FR2: Agent Loop Execution', () => {
  it('Loop terminates after max_turns', async () => {
    const call = (id: string) => [reply({ calls: [{ name: 'echo', input: { text: 'again' }, id }] })];
    const provider = inlineProvider([call('a'), call('b'), call('c')]);
    const result = await executor.execute(
      agent(provider, { runConfig: { maxTurns: 2 }, toolConfig: { tools: [echo] } }),
    );
    expect(result.terminateReason).toBe('max_turns');
    expect(result.turns).toBe(2);
    expect(provider.requests).toHaveLength(2);
    expect(historyProblems(result.messages)).toEqual([]);
  });

  it('Loop terminates after timeout_ms', async () => {
    const provider = inlineProvider([hanging()]);
    const result = await executor.execute(agent(provider, { runConfig: { timeoutMs: 20 } }));
    expect(result.terminateReason).toBe('timeout');
  });

  it('AbortSignal cancels execution', async () => {
    const controller = new AbortController();
    const provider = inlineProvider([hanging(() => controller.abort())]);
    const result = await executor.execute(agent(provider), { signal: controller.signal });
    expect(result.terminateReason).toBe('aborted');
    const already = await executor.execute(agent(inlineProvider([])), { signal: AbortSignal.abort() });
    expect(already.terminateReason).toBe('aborted');
  });

  it('Tool calls are executed in parallel', async () => {
    const running: string[] = [];
    let bothRunning = false;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = defineTool({
      name: 'slow',
      description: 'waits',
      parameters: z.object({ id: z.string() }),
      execute: async ({ id }) => {
        running.push(id);
        if (running.length === 2) {
          bothRunning = true;
          release();
        }
        await gate;
        return id;
      },
    });
    const provider = inlineProvider([
      [
        reply({
          calls: [
            { name: 'slow', input: { id: 'a' }, id: 'a' },
            { name: 'slow', input: { id: 'b' }, id: 'b' },
          ],
        }),
      ],
      [textDone('done')],
    ]);
    const result = await executor.execute(
      agent(provider, {
        runConfig: { orchestrator: toolsOrchestrator, toolExecution: 'parallel' },
        toolConfig: { tools: [slow] },
      }),
    );
    expect(bothRunning).toBe(true);
    expect(result.toolCalls.map((call) => call.result)).toEqual(['a', 'b']);
  });

  it('Messages accumulate correctly', async () => {
    const provider = inlineProvider([
      [reply({ calls: [{ name: 'echo', input: { text: 'hi' }, id: 'e1' }] })],
      [textDone('said hi')],
    ]);
    const result = await executor.execute(agent(provider, { toolConfig: { tools: [echo] } }));
    expect(result.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'assistant',
    ]);
    expect(provider.requests[1]?.messages).toHaveLength(3);
    expect(historyProblems(result.messages)).toEqual([]);
  });
});

describe('FR3: Activity Events', () => {
  async function activity(provider: ReturnType<typeof inlineProvider>, extra: Partial<AgentDefinition> = {}) {
    const events: AgentEvent[] = [];
    const result = await executor.execute(agent(provider, extra), {
      onActivity: (event) => events.push(event),
    });
    return { events, result };
  }

  it('Events emit in correct order', async () => {
    const { events } = await activity(inlineProvider([[textDone('hi')]]));
    expect(events.map((event) => event.type)).toEqual([
      'agent_start',
      'turn_start',
      'message_start',
      'message_end',
      'turn_end',
      'agent_end',
    ]);
    expect(events.map((event) => event.seq)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('All tool calls emit start/end events', async () => {
    const provider = inlineProvider([
      [
        reply({
          calls: [
            { name: 'echo', input: { text: 'a' }, id: 'x' },
            { name: 'nope', input: {}, id: 'y' },
          ],
        }),
      ],
      [textDone('done')],
    ]);
    const { events } = await activity(provider, { toolConfig: { tools: [echo] } });
    const tools = events.flatMap((event) =>
      event.type === 'tool_call_start' || event.type === 'tool_call_end'
        ? [`${event.type}:${event.toolCall.id}`]
        : [],
    );
    expect(tools).toEqual(['tool_call_start:x', 'tool_call_end:x', 'tool_call_start:y', 'tool_call_end:y']);
  });

  it('Errors are captured as events', async () => {
    const provider = inlineProvider([
      [{ type: 'error', error: new ProviderError({ kind: 'invalid_request', message: 'bad request' }) }],
    ]);
    const { events, result } = await activity(provider);
    expect(result.terminateReason).toBe('error');
    const error = events.find((event) => event.type === 'error');
    expect(error?.type === 'error' && error.error.message).toMatch(/bad request/);
  });

  it('Content streaming works via chunks', async () => {
    const provider = inlineProvider([
      [{ type: 'text_delta', delta: 'Hel' }, { type: 'text_delta', delta: 'lo' }, textDone('Hello')],
    ]);
    const { events, result } = await activity(provider);
    const chunks = events.flatMap((event) => (event.type === 'text_delta' ? [event.delta] : []));
    expect(chunks).toEqual(['Hel', 'lo']);
    expect(result.text).toBe('Hello');
  });
});

describe('FR4: Agent Registry', () => {
  it('Duplicate names throw errors', () => {
    const registry = new AgentRegistry([agent(inlineProvider([]))]);
    expect(() => registry.register(agent(inlineProvider([])))).toThrow(RegistryError);
  });

  it('Lookup by name is O(1)', () => {
    // A lookup that scanned the definitions would read their names; a keyed lookup reads none.
    let nameReads = 0;
    const registry = new AgentRegistry();
    for (let index = 0; index < 1000; index++) {
      const definition = agent(inlineProvider([]));
      registry.register({ ...definition, name: `agent_${index}` });
    }
    const spied = new Proxy(agent(inlineProvider([])), {
      get(target, key, receiver) {
        if (key === 'name') nameReads++;
        return Reflect.get(target, key, receiver);
      },
    });
    registry.register(spied);
    nameReads = 0;
    expect(registry.get('worker')).toBe(spied);
    expect(registry.get('agent_999')?.name).toBe('agent_999');
    expect(nameReads).toBe(0);
  });

  it('Registry is singleton per app', () => {
    expect(new AgentExecutor().registry).toBe(defaultAgentRegistry);
    // Shared under a global key, so a second copy of core in the app sees the same registry.
    expect((globalThis as Record<symbol, unknown>)[Symbol.for('agent-core.agent-registry.v1')]).toBe(
      defaultAgentRegistry,
    );
  });
});

describe('FR5: Output Validation', () => {
  const schema = z.object({
    summary: z.string(),
    files: z.array(z.string()).transform((files) => files.length),
  });

  it('Valid output is parsed and returned typed', async () => {
    const provider = inlineProvider([
      [reply({ calls: [{ name: 'complete_task', input: { summary: 's', files: ['a', 'b'] } }] })],
    ]);
    const definition = defineAgent({
      name: 'summarizer',
      description: 'Summarizes',
      promptConfig: {},
      modelConfig: { provider, model: 'm' },
      outputConfig: { outputName: 'result', schema },
    });
    const result = await executor.execute(definition);
    expectTypeOf(result).toEqualTypeOf<AgentResult<{ summary: string; files: number }>>();
    expect(result.outputValid).toBe(true);
    expect(result.output).toEqual({ summary: 's', files: 2 });
  });

  it('Invalid output returns raw content with flag', async () => {
    const provider = inlineProvider([[reply({ calls: [{ name: 'complete_task', input: { summary: 1 } }] })]]);
    const result = await executor.execute(agent(provider, { outputConfig: { schema, maxAttempts: 1 } }));
    expect(result.outputValid).toBe(false);
    expect(result.output).toBeUndefined();
    expect(result.text).toBe('{"summary":1}');
  });

  it("Schema errors don't crash execution", async () => {
    const exploding = z.object({ summary: z.string() }).superRefine(() => {
      throw new Error('boom');
    });
    const provider = inlineProvider([
      [reply({ calls: [{ name: 'complete_task', input: { summary: 's' } }] })],
    ]);
    const result = await executor.execute(
      agent(provider, { outputConfig: { schema: exploding, maxAttempts: 1 } }),
    );
    expect(result.terminateReason).toBe('completed');
    expect(result.outputValid).toBe(false);
    expect(result.error?.message).toMatch(/boom/);
  });
});
