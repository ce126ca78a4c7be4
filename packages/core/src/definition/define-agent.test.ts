import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { AgentDefinitionError, AgentInputError, RegistryError } from '../index.js';
import { inlineProvider, textDone } from '../test-support/inline-provider.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import {
  type AgentDefinition,
  AgentExecutor,
  AgentRegistry,
  defaultAgentRegistry,
  defineAgent,
} from './index.js';

const base = {
  name: 'writer',
  description: 'Writes about a topic',
  promptConfig: { systemPrompt: 'Write about ${topic} in ${words} words.', query: 'Go: ${topic}' },
  modelConfig: { provider: 'mock', model: 'm' },
  inputConfig: {
    inputs: {
      topic: { type: 'string' as const, description: 'what to write about' },
      words: { schema: z.number().int().positive(), default: 50 },
    },
  },
};

function refused(definition: unknown): AgentDefinitionError {
  try {
    defineAgent(definition as AgentDefinition);
  } catch (error) {
    if (error instanceof AgentDefinitionError) return error;
    throw error;
  }
  throw new Error('the definition was accepted');
}

describe('defineAgent validation', () => {
  it('infers TOutput from outputConfig.schema, and unknown without one', () => {
    const typed = defineAgent({ ...base, outputConfig: { schema: z.object({ title: z.string() }) } });
    expectTypeOf(typed).toEqualTypeOf<AgentDefinition<{ title: string }>>();
    expectTypeOf(defineAgent(base)).toEqualTypeOf<AgentDefinition<unknown>>();
  });

  it('refuses a bad field with a message naming the definition and the field', () => {
    const error = refused({ ...base, runConfig: { maxTurns: 0 } });
    expect(error.definitionName).toBe('writer');
    expect(error.issues[0]?.path).toBe('runConfig.maxTurns');
    expect(error.message).toMatch(/Agent definition 'writer' is invalid: runConfig\.maxTurns: /);
  });

  it('names unknown fields (typos) and a missing model', () => {
    const error = refused({ ...base, runConfig: { maxTurn: 3 }, modelConfig: { provider: 'mock' } });
    expect(error.message).toMatch(/runConfig: unknown field 'maxTurn'/);
    expect(error.message).toMatch(/modelConfig\.model: /);
  });

  it('refuses a name no provider accepts as a tool name, and an empty description', () => {
    const error = refused({ ...base, name: 'has spaces', description: '' });
    expect(error.issues.map((issue) => issue.path)).toEqual(['name', 'description']);
  });

  it('refuses a template variable that is not a declared input', () => {
    const error = refused({ ...base, promptConfig: { systemPrompt: 'About ${subject}' } });
    expect(error.message).toMatch(
      /promptConfig\.systemPrompt: uses \$\{subject\}, which is not a declared input/,
    );
  });

  it('refuses an input without a type or schema, and a default that does not fit', () => {
    const error = refused({
      ...base,
      inputConfig: { inputs: { topic: {}, words: { type: 'number', default: 'many' } } },
    });
    expect(error.issues).toEqual([
      { path: 'inputConfig.inputs.topic', message: 'give either a type or a zod schema' },
      { path: 'inputConfig.inputs.words.default', message: 'expected a number, got string "many"' },
    ]);
  });

  it('refuses an output schema that is not zod, and a provider that is neither a name nor a Provider', () => {
    const error = refused({
      ...base,
      outputConfig: { schema: { type: 'object' } },
      modelConfig: { provider: {}, model: 'm' },
    });
    expect(error.issues.map((issue) => issue.path)).toEqual(['modelConfig.provider', 'outputConfig.schema']);
  });
});

describe('inputs and templates', () => {
  const provider = inlineProvider([[textDone('done')]]);
  const executor = new AgentExecutor({
    registry: new AgentRegistry(),
    providers: { mock: provider },
    orchestrator: stepOrchestrator,
  });

  it('substitutes ${variable} in the system prompt and query, with defaults and literal $${...}', async () => {
    const definition = defineAgent({
      ...base,
      promptConfig: {
        ...base.promptConfig,
        systemPrompt: 'Write about ${topic} in ${words} words, not $${topic}.',
      },
    });
    const result = await executor.execute(definition, { inputs: { topic: 'tides' } });
    expect(result.terminateReason).toBe('completed');
    expect(provider.requests[0]?.system).toBe('Write about tides in 50 words, not ${topic}.');
    expect(provider.requests[0]?.messages[0]).toEqual({ role: 'user', content: 'Go: tides' });
  });

  it('refuses missing, unknown and mistyped inputs before any model call', async () => {
    const silent = inlineProvider([]);
    const strict = new AgentExecutor({ providers: { mock: silent }, orchestrator: stepOrchestrator });
    const definition = defineAgent(base);
    await expect(strict.execute(definition, { inputs: {} })).rejects.toThrow(/topic: missing required input/);
    await expect(strict.execute(definition, { inputs: { topic: 'x', tone: 'dry' } })).rejects.toThrow(
      /tone: unknown input; declared: topic, words/,
    );
    const error = await strict
      .execute(definition, { inputs: { topic: 1, words: -2 } })
      .catch((caught) => caught);
    expect(error).toBeInstanceOf(AgentInputError);
    expect((error as AgentInputError).issues.map((issue) => issue.path)).toEqual(['topic', 'words']);
    expect(silent.requests).toHaveLength(0);
  });
});

describe('AgentRegistry', () => {
  const definition = defineAgent(base);

  it('registers, looks up, lists, unregisters, and throws on a duplicate name', () => {
    const registry = new AgentRegistry().register(definition);
    expect(registry.get('writer')).toBe(definition);
    expect(registry.get('nobody')).toBeUndefined();
    expect(registry.list()).toEqual([definition]);
    expect(registry.getAll()).toEqual([definition]);
    expect(() => registry.register(definition)).toThrow(RegistryError);
    expect(() => registry.register(definition)).toThrow(
      /^An agent definition named 'writer' is already registered/,
    );
    expect(registry.unregister('writer')).toBe(true);
    expect(registry.unregister('writer')).toBe(false);
    expect(registry.list()).toEqual([]);
  });

  it('validates at registration', () => {
    expect(() => new AgentRegistry().register({ ...base, description: 42 } as never)).toThrow(
      /Agent definition 'writer' is invalid: description: /,
    );
  });

  it('runs a definition by name and says which names exist for an unknown one', async () => {
    const provider = inlineProvider([[textDone('by name')]]);
    const registry = new AgentRegistry([definition]);
    const executor = new AgentExecutor({
      registry,
      providers: { mock: provider },
      orchestrator: stepOrchestrator,
    });
    const result = await executor.execute('writer', { inputs: { topic: 't' } });
    expect(result.text).toBe('by name');
    await expect(executor.execute('reader')).rejects.toThrow(
      /No agent definition named 'reader'.*Registered: writer/,
    );
  });

  it('has a default registry that tests can reset', () => {
    defaultAgentRegistry.register(definition);
    expect(new AgentExecutor().registry.get('writer')).toBe(definition);
    defaultAgentRegistry.clear();
    expect(defaultAgentRegistry.list()).toEqual([]);
  });
});
