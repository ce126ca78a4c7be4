import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  type Agent,
  type AgentEvent,
  ConfigError,
  defineTool,
  type ModelEvent,
  ProviderError,
  stderrLogger,
} from '../index.js';
import { callsDone, inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { stepAgent } from '../test-support/step-agent.js';

const add = defineTool({
  name: 'add',
  description: 'adds',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
const broken = defineTool({
  name: 'broken',
  description: 'always fails',
  parameters: z.object({}),
  execute: () => {
    throw new Error('disk on fire');
  },
});

function overloaded(): ModelEvent[] {
  return [{ type: 'error', error: new ProviderError({ kind: 'overloaded', message: 'busy', status: 529 }) }];
}

function withUsage(event: ModelEvent, input: number, output: number): ModelEvent {
  if (event.type === 'done') event.message.usage = { input, output, cacheRead: 1, cacheWrite: 0 };
  return event;
}

async function collect(agent: Agent, input: string, options?: Parameters<Agent['prompt']>[1]) {
  const events: AgentEvent[] = [];
  const run = agent.prompt(input, options);
  for await (const event of run) events.push(event);
  return { events, result: await run.result() };
}

function one<Type extends AgentEvent['type']>(events: AgentEvent[], type: Type) {
  return events.filter((event): event is Extract<AgentEvent, { type: Type }> => event.type === type);
}

describe('trace and span ids', () => {
  it('gives the run, each turn, model call and tool call a span with its parent', async () => {
    const agent = stepAgent({
      provider: inlineProvider([[toolDone('add', { a: 1, b: 2 })], [textDone('3')]]),
      tools: [add],
    });
    const { events, result } = await collect(agent, 'add');
    const [start] = one(events, 'agent_start');
    expect(start?.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(start?.traceId).not.toBe(result.runId.replaceAll('-', ''));
    expect(start?.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(start?.parentSpanId).toBeUndefined();
    expect(result.traceId).toBe(start?.traceId);
    expect(result.spanId).toBe(start?.spanId);

    const turns = one(events, 'turn_start');
    expect(turns).toHaveLength(2);
    for (const turn of turns) expect(turn.parentSpanId).toBe(result.spanId);
    const [firstTurn, secondTurn] = turns;
    const calls = one(events, 'message_start');
    expect(calls.map((event) => event.parentSpanId)).toEqual([firstTurn?.spanId, secondTurn?.spanId]);
    expect(one(events, 'message_end').map((event) => event.spanId)).toEqual(
      calls.map((event) => event.spanId),
    );
    const [toolStart] = one(events, 'tool_call_start');
    const [toolEnd] = one(events, 'tool_call_end');
    expect(toolStart?.parentSpanId).toBe(firstTurn?.spanId);
    expect(toolEnd?.spanId).toBe(toolStart?.spanId);
    expect(one(events, 'turn_end').map((event) => event.spanId)).toEqual(turns.map((turn) => turn.spanId));

    const ids = [result.spanId, ...turns.map((turn) => turn.spanId), ...calls.map((call) => call.spanId)];
    ids.push(toolStart?.spanId as string);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('joins the trace of a traceparent, or of a trace context, which wins', async () => {
    const agent = stepAgent({ provider: inlineProvider([[textDone('a')], [textDone('b')]]) });
    const joined = await collect(agent, 'hi', {
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    });
    expect(joined.result.traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(joined.result.parentSpanId).toBe('b7ad6b7169203331');
    expect(one(joined.events, 'agent_start')[0]).toMatchObject({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      parentSpanId: 'b7ad6b7169203331',
    });
    const link = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16) };
    const second = await collect(agent, 'again', {
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      trace: { traceId: '1'.repeat(32), spanId: '2'.repeat(16) },
      links: [link],
    });
    expect(second.result.traceId).toBe('1'.repeat(32));
    expect(one(second.events, 'agent_start')[0]?.links).toEqual([link]);
  });

  it('refuses a malformed parent trace with a ConfigError and starts no run', () => {
    const agent = stepAgent({ provider: inlineProvider([]) });
    expect(() => agent.prompt('x', { traceparent: 'not-a-header' })).toThrow(ConfigError);
    expect(() => agent.prompt('x', { trace: { traceId: 'abc', spanId: 'def' } })).toThrow(/32-hex traceId/);
    expect(agent.isRunning).toBe(false);
  });

  it('gives every attempt its own span: the failed one, the retry and the fallback', async () => {
    const agent = stepAgent({
      provider: inlineProvider([overloaded(), overloaded()], 'primary'),
      fallbackProvider: inlineProvider([[textDone('from fallback')]], 'backup'),
      retry: { maxRetries: 1, baseDelayMs: 1 },
    });
    const { events, result } = await collect(agent, 'hi');
    expect(result.text).toBe('from fallback');
    const starts = one(events, 'message_start');
    const ends = one(events, 'message_end');
    expect(starts.map((event) => [event.provider, event.attempt])).toEqual([
      ['primary', 0],
      ['primary', 1],
      ['backup', 2],
    ]);
    expect(ends.map((event) => event.spanId)).toEqual(starts.map((event) => event.spanId));
    expect(ends.map((event) => event.error?.kind)).toEqual(['overloaded', 'overloaded', undefined]);
    expect(ends[0]?.message.stopReason).toBe('error');
    const [retry] = one(events, 'retry');
    expect(retry?.spanId).toBe(starts[0]?.spanId);
    const turn = one(events, 'turn_start')[0]?.spanId;
    for (const start of starts) expect(start.parentSpanId).toBe(turn);
    expect(new Set(starts.map((event) => event.spanId)).size).toBe(3);
    expect(result.metrics).toMatchObject({ turns: 1, modelCalls: 3, retries: 1, fallbacks: 1 });
  });
});

describe('run metrics', () => {
  it('counts turns, model calls, tokens, cost and tool calls by name with errors and durations', async () => {
    const provider = inlineProvider([
      [
        { type: 'text_delta', delta: 'let me see' },
        withUsage(
          callsDone([
            { id: 'c1', name: 'add', input: { a: 1, b: 2 } },
            { id: 'c2', name: 'add', input: { a: 'x' } },
            { id: 'c3', name: 'broken', input: {} },
          ]),
          100,
          20,
        ),
      ],
      [withUsage(textDone('done'), 150, 5)],
    ]);
    provider.modelInfo = () => ({ pricing: { input: 3, output: 15 } }) as never;
    const agent = stepAgent({ provider, tools: [add, broken] });
    const { result } = await collect(agent, 'go');
    const metrics = result.metrics;
    expect(metrics).toMatchObject({
      turns: 2,
      modelCalls: 2,
      retries: 0,
      fallbacks: 0,
      tokens: { input: 250, output: 25, cacheRead: 2, cacheWrite: 0, total: 277 },
    });
    expect(metrics.toolCalls).toEqual({
      add: { count: 2, errors: 1, durationMs: expect.any(Number) },
      broken: { count: 1, errors: 1, durationMs: expect.any(Number) },
    });
    expect(metrics.costUsd).toBeGreaterThan(0);
    expect(metrics.timeToFirstTokenMs).toBeGreaterThanOrEqual(0);
    // Durations carry at most one decimal: 0.1 ms resolution.
    for (const value of [metrics.durationMs, metrics.timeToFirstTokenMs, metrics.toolCalls.add?.durationMs])
      expect(String(value)).toMatch(/^\d+(\.\d)?$/);
    expect(JSON.parse(JSON.stringify(metrics))).toEqual(metrics);
  });

  it('has no time to first token when no model call answered', async () => {
    const agent = stepAgent({
      provider: inlineProvider([
        [{ type: 'error', error: new ProviderError({ kind: 'auth', message: 'no' }) }],
      ]),
    });
    const { result } = await collect(agent, 'go');
    expect(result.terminateReason).toBe('error');
    expect(result.metrics.timeToFirstTokenMs).toBe(undefined);
    expect(result.metrics.modelCalls).toBe(1);
  });
});

describe('structured logs', () => {
  it('writes JSON lines with trace and span ids for a run with a retry and a tool error', async () => {
    const lines: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
      lines.push(String(text));
      return true;
    });
    try {
      const agent = stepAgent({
        provider: inlineProvider([
          overloaded(),
          [toolDone('broken', {})],
          [withUsage(textDone('sorry'), 10, 2)],
        ]),
        tools: [broken],
        retry: { baseDelayMs: 1 },
        logger: stderrLogger('debug'),
      });
      const { result } = await collect(agent, 'go');
      const records = lines
        .join('')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(records.map((record) => record.message)).toEqual([
        'run started',
        'model call started',
        'model call failed',
        'model call will be retried',
        'model call started',
        'model call ended',
        'tool call failed',
        'model call started',
        'model call ended',
        'run ended',
      ]);
      for (const record of records) {
        expect(record).toMatchObject({ runId: result.runId, traceId: result.traceId });
        expect(record.spanId).toMatch(/^[0-9a-f]{16}$/);
        expect(typeof record.time).toBe('string');
      }
      const retry = records.find((record) => record.message === 'model call will be retried');
      expect(retry).toMatchObject({ level: 'warn', kind: 'overloaded', status: 529, attempt: 1 });
      const toolError = records.find((record) => record.message === 'tool call failed');
      expect(toolError).toMatchObject({ level: 'warn', tool: 'broken', isError: true });
      expect(toolError.error).toContain('disk on fire');
      const end = records.at(-1);
      expect(end).toMatchObject({ level: 'info', terminateReason: 'completed', spanId: result.spanId });
      expect(end.metrics).toMatchObject({ retries: 1, toolCalls: { broken: { count: 1, errors: 1 } } });
    } finally {
      write.mockRestore();
    }
  });

  it('logs nothing when the agent has no logger', async () => {
    const write = vi.spyOn(process.stderr, 'write');
    try {
      const agent = stepAgent({
        provider: inlineProvider([overloaded(), [textDone('ok')]]),
        retry: { baseDelayMs: 1 },
      });
      await agent.prompt('go').result();
      expect(write).not.toHaveBeenCalled();
    } finally {
      write.mockRestore();
    }
  });

  it('redacts secrets from provider errors and from what the logger writes', async () => {
    const error = new ProviderError({
      kind: 'auth',
      message: 'invalid x-api-key: sk-ant-test-SECRET123456 (Authorization: Bearer sk-proj-SECRET987654)',
    });
    expect(error.message).not.toContain('SECRET');
    const records: unknown[] = [];
    const agent = stepAgent({
      provider: inlineProvider([[{ type: 'error', error }]]),
      logger: {
        debug: (message, fields) => records.push({ message, fields }),
        info: (message, fields) => records.push({ message, fields }),
        warn: (message, fields) => records.push({ message, fields }),
        error: (message, fields) => records.push({ message, fields }),
      },
    });
    const { events, result } = await collect(agent, 'go');
    expect(JSON.stringify(records)).not.toContain('SECRET');
    expect(JSON.stringify(events)).not.toContain('SECRET');
    expect(JSON.stringify(result)).not.toContain('SECRET');
    expect(JSON.stringify(records)).toContain('[REDACTED]');
  });
});
