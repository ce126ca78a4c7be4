import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  defineTool,
  historyProblems,
  OutputValidationError,
  type AgentResult,
  type Provider,
} from '../index.js';
import { inlineProvider, textDone } from '../test-support/inline-provider.js';
import { reply } from '../test-support/replies.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { type AgentDefinition, AgentExecutor, AgentRegistry, defineAgent } from './index.js';

const reportSchema = z.object({ summary: z.string(), files: z.array(z.string()) });

function reporter(provider: ReturnType<typeof inlineProvider>, extra: { maxAttempts?: number } = {}) {
  return defineAgent({
    name: 'reporter',
    description: 'Reports on files',
    promptConfig: { systemPrompt: 'Report.' },
    modelConfig: { provider, model: 'm' },
    runConfig: { orchestrator: stepOrchestrator },
    outputConfig: { schema: reportSchema, ...extra },
  });
}

const executor = new AgentExecutor({ registry: new AgentRegistry() });

/** A definition named `name` on the step loop with `provider` and an empty prompt; `settings` add its output and tools. */
function outputAgent(
  name: string,
  provider: Provider,
  settings: Pick<AgentDefinition, 'outputConfig' | 'toolConfig'>,
) {
  return defineAgent({
    name,
    description: name,
    promptConfig: {},
    modelConfig: { provider, model: 'm' },
    runConfig: { orchestrator: stepOrchestrator },
    ...settings,
  });
}

describe('structured output through complete_task', () => {
  it('returns typed output from a valid complete_task call and ends the run', async () => {
    const provider = inlineProvider([
      [reply({ calls: [{ name: 'complete_task', input: { summary: 'ok', files: ['a.ts'] } }] })],
    ]);
    const result = await executor.execute(reporter(provider));
    expectTypeOf(result).toEqualTypeOf<AgentResult<{ summary: string; files: string[] }>>();
    expectTypeOf(result.output).toEqualTypeOf<{ summary: string; files: string[] } | undefined>();
    expect(result.terminateReason).toBe('completed');
    expect(result.outputValid).toBe(true);
    expect(result.output).toEqual({ summary: 'ok', files: ['a.ts'] });
    expect(result.text).toBe('{"summary":"ok","files":["a.ts"]}');
    expect(result.turns).toBe(1);
    expect(provider.requests[0]?.tools?.map((tool) => tool.name)).toEqual(['complete_task']);
    expect(provider.requests[0]?.tools?.[0]?.parameters).toMatchObject({
      type: 'object',
      required: ['summary', 'files'],
    });
    expect(historyProblems(result.messages)).toEqual([]);
  });

  it('sends invalid input back naming the failing fields, then accepts the corrected call', async () => {
    const provider = inlineProvider([
      [reply({ calls: [{ name: 'complete_task', input: { summary: 3 }, id: 'c1' }] })],
      [reply({ calls: [{ name: 'complete_task', input: { summary: 'fixed', files: [] }, id: 'c2' }] })],
    ]);
    const result = await executor.execute(reporter(provider));
    expect(result.outputValid).toBe(true);
    expect(result.output).toEqual({ summary: 'fixed', files: [] });
    const feedback = result.messages.find((message) => message.role === 'toolResult');
    expect(feedback).toMatchObject({ toolCallId: 'c1', isError: true });
    expect(String((feedback as { content: unknown }).content)).toMatch(/input\.summary: .*string/);
    expect(String((feedback as { content: unknown }).content)).toMatch(/input\.files/);
    expect(result.turns).toBe(2);
  });

  it('ends with the raw content, outputValid false and the issues after maxAttempts invalid calls', async () => {
    const bad = (id: string) => [reply({ calls: [{ name: 'complete_task', input: { summary: 1 }, id }] })];
    const provider = inlineProvider([bad('c1'), bad('c2'), bad('c3'), [textDone('never asked')]]);
    const result = await executor.execute(reporter(provider, { maxAttempts: 3 }));
    expect(provider.requests).toHaveLength(3);
    expect(result.terminateReason).toBe('completed');
    expect(result.outputValid).toBe(false);
    expect(result.output).toBeUndefined();
    expect(result.text).toBe('{"summary":1}');
    expect(result.error).toBeInstanceOf(OutputValidationError);
    const error = result.error as OutputValidationError;
    expect(error.attempts).toBe(3);
    expect(error.issues.map((issue) => issue.path)).toEqual(['summary', 'files']);
    expect(error.message).toMatch(/3 invalid attempts/);
    expect(historyProblems(result.messages)).toEqual([]);
  });

  it('gives a model that answers in text one grace turn asking it to call complete_task', async () => {
    const provider = inlineProvider([
      [textDone('Here is my report: all good.')],
      [reply({ calls: [{ name: 'complete_task', input: { summary: 'all good', files: [] } }] })],
    ]);
    const events: string[] = [];
    const result = await executor.execute(reporter(provider), {
      onActivity: (event) => events.push(event.type),
    });
    expect(result.outputValid).toBe(true);
    expect(result.output).toEqual({ summary: 'all good', files: [] });
    const reminder = provider.requests[1]?.messages.at(-1);
    expect(reminder).toMatchObject({ role: 'user' });
    expect(String((reminder as { content: unknown }).content)).toMatch(/Call complete_task now/);
    expect(events).toContain('follow_up');
  });

  it('falls back to the raw text when the model still answers in text after the grace turn', async () => {
    const provider = inlineProvider([[textDone('plain answer')], [textDone('still plain')], [textDone('x')]]);
    const result = await executor.execute(reporter(provider));
    expect(provider.requests).toHaveLength(2);
    expect(result.terminateReason).toBe('completed');
    expect(result.outputValid).toBe(false);
    expect(result.output).toBeUndefined();
    expect(result.text).toBe('still plain');
    expect(result.error?.message).toMatch(/without a call to complete_task/);
  });

  it('never re-runs a tool that already ran when it asks again', async () => {
    let runs = 0;
    const lookup = defineTool({
      name: 'lookup',
      description: 'looks up',
      parameters: z.object({}),
      execute: () => {
        runs++;
        return 'a.ts';
      },
    });
    const provider = inlineProvider([
      [reply({ calls: [{ name: 'lookup', input: {} }] })],
      [reply({ calls: [{ name: 'complete_task', input: { summary: 2 }, id: 'bad' }] })],
      [textDone('oops, text')],
      [reply({ calls: [{ name: 'complete_task', input: { summary: 's', files: ['a.ts'] } }] })],
    ]);
    const definition = outputAgent('looker', provider, {
      toolConfig: { tools: [lookup] },
      outputConfig: { schema: reportSchema },
    });
    const result = await executor.execute(definition);
    expect(result.outputValid).toBe(true);
    expect(runs).toBe(1);
    expect(result.toolCalls.filter((call) => call.name === 'lookup')).toHaveLength(1);
  });

  it('skips calls that come after accepted output in the same response', async () => {
    let runs = 0;
    const late = defineTool({
      name: 'late',
      description: 'late',
      parameters: z.object({}),
      execute: () => String(++runs),
    });
    const provider = inlineProvider([
      [
        reply({
          calls: [
            { name: 'complete_task', input: { summary: 's', files: [] } },
            { name: 'late', input: {} },
          ],
        }),
      ],
    ]);
    const definition = outputAgent('eager', provider, {
      toolConfig: { tools: [late] },
      outputConfig: { schema: reportSchema },
    });
    const result = await executor.execute(definition);
    expect(result.outputValid).toBe(true);
    expect(runs).toBe(0);
    expect(historyProblems(result.messages)).toEqual([]);
  });

  it('survives a schema that throws: the attempt is an error result and the run ends with outputValid false', async () => {
    const throwing = z.object({ n: z.number() }).refine(() => {
      throw new Error('refinement exploded');
    });
    const provider = inlineProvider([
      [reply({ calls: [{ name: 'complete_task', input: { n: 1 }, id: 'attempt_1' }] })],
      [reply({ calls: [{ name: 'complete_task', input: { n: 2 }, id: 'attempt_2' }] })],
    ]);
    const definition = outputAgent('fragile', provider, {
      outputConfig: { schema: throwing, maxAttempts: 2 },
    });
    const result = await executor.execute(definition);
    expect(result.terminateReason).toBe('completed');
    expect(result.outputValid).toBe(false);
    expect((result.error as OutputValidationError).issues[0]?.message).toMatch(/refinement exploded/);
  });

  it('asks for a schema that is not an object under outputName, and returns the bare value', async () => {
    const provider = inlineProvider([[reply({ calls: [{ name: 'finish', input: { count: 7 } }] })]]);
    const definition = defineAgent({
      name: 'counter',
      description: 'counts',
      promptConfig: {},
      modelConfig: { provider, model: 'm' },
      runConfig: { orchestrator: stepOrchestrator },
      outputConfig: { schema: z.number().int(), outputName: 'count', toolName: 'finish' },
    });
    const result = await executor.execute(definition);
    expectTypeOf(result.output).toEqualTypeOf<number | undefined>();
    expect(result.output).toBe(7);
    expect(provider.requests[0]?.tools?.[0]).toMatchObject({
      name: 'finish',
      parameters: { properties: { count: { type: 'integer' } } },
    });
  });

  it('keeps the run reason when a limit ends it before output', async () => {
    const provider = inlineProvider([[textDone('thinking')], [textDone('more')]]);
    const definition = defineAgent({
      name: 'slow',
      description: 'slow',
      promptConfig: {},
      modelConfig: { provider, model: 'm' },
      runConfig: { orchestrator: stepOrchestrator, maxTurns: 1 },
      outputConfig: { schema: reportSchema },
    });
    const result = await executor.execute(definition);
    expect(result.outputValid).toBe(false);
    expect(result.terminateReason).toBe('max_turns');
    expect(result.text).toMatch(/limit of 1 turns/);
    expect(provider.requests).toHaveLength(1);
  });
});

describe('structured output in native mode', () => {
  it('sends a JSON-schema response format and validates the JSON answer, asking again on a mismatch', async () => {
    const provider = inlineProvider([[textDone('{"summary": 5}')], [textDone('{"summary":"s","files":[]}')]]);
    const definition = outputAgent('native', provider, {
      outputConfig: { schema: reportSchema, mode: 'native' },
    });
    const result = await executor.execute(definition);
    expect(provider.requests[0]?.tools).toBeUndefined();
    expect(provider.requests[0]?.responseFormat).toMatchObject({
      type: 'json_schema',
      name: 'complete_task',
      schema: { type: 'object', required: ['summary', 'files'] },
    });
    const retry = provider.requests[1]?.messages.at(-1) as { content: unknown };
    expect(String(retry.content)).toMatch(/summary: .*string/);
    expect(result.outputValid).toBe(true);
    expect(result.output).toEqual({ summary: 's', files: [] });
    expect(result.text).toBe('{"summary":"s","files":[]}');
  });

  it('ends with the raw text and outputValid false when the answers stay invalid', async () => {
    const provider = inlineProvider([[textDone('not json')], [textDone('{"summary":1}')]]);
    const definition = outputAgent('native2', provider, {
      outputConfig: { schema: reportSchema, mode: 'native', maxAttempts: 2 },
    });
    const result = await executor.execute(definition);
    expect(provider.requests).toHaveLength(2);
    expect(result.outputValid).toBe(false);
    expect(result.text).toBe('{"summary":1}');
  });
});

describe('structured output with the output tool forced (Anthropic-style)', () => {
  it('requires the output tool on every model call and returns the same result shape', async () => {
    const provider = inlineProvider([
      [reply({ calls: [{ name: 'complete_task', input: { summary: 1 }, id: 'c1' }] })],
      [reply({ calls: [{ name: 'complete_task', input: { summary: 'ok', files: [] }, id: 'c2' }] })],
    ]);
    const definition = outputAgent('forced', provider, {
      outputConfig: { schema: reportSchema, mode: 'forced' },
    });
    const result = await executor.execute(definition);
    expect(provider.requests.map((request) => request.toolChoice)).toEqual([
      { type: 'tool', name: 'complete_task' },
      { type: 'tool', name: 'complete_task' },
    ]);
    expect(result.outputValid).toBe(true);
    expect(result.output).toEqual({ summary: 'ok', files: [] });
    expect(historyProblems(result.messages)).toEqual([]);
  });

  it('is refused for a definition with other tools, naming the field', () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'looks up',
      parameters: z.object({}),
      execute: () => '',
    });
    expect(() =>
      defineAgent({
        name: 'forced-with-tools',
        description: 'forced',
        promptConfig: {},
        modelConfig: { provider: inlineProvider([]), model: 'm' },
        toolConfig: { tools: [lookup] },
        outputConfig: { schema: reportSchema, mode: 'forced' },
      }),
    ).toThrow(/outputConfig\.mode/);
  });
});
