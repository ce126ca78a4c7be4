import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentEvent,
  type AgentEventInput,
  defineTool,
  isCustomEvent,
  type ToolEventInput,
} from '../index.js';
import { inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { stepAgent } from '../test-support/step-agent.js';

describe('isCustomEvent', () => {
  it('narrows to the custom event of one name with the documented data type', () => {
    const events: AgentEvent[] = [
      { type: 'custom', name: 'progress', data: { done: 3 }, runId: 'r', turn: 1, seq: 0 },
      { type: 'custom', name: 'other', data: 'x', runId: 'r', turn: 1, seq: 1 },
      { type: 'turn_start', runId: 'r', turn: 1, seq: 2, spanId: 'a', parentSpanId: 'b' },
    ];
    const done: number[] = [];
    for (const event of events) {
      if (isCustomEvent<'progress', { done: number }>(event, 'progress')) {
        expectTypeOf(event.data).toEqualTypeOf<{ done: number }>();
        done.push(event.data.done);
      }
    }
    expect(done).toEqual([3]);
  });
});

describe('custom events from a tool', () => {
  it('reach the stream with every key they had, stamped with the run, turn and seq of the run', async () => {
    // Parsed JSON can carry an own `__proto__` key: it stays a key, never the event's prototype.
    const fromJson = JSON.parse(
      '{"type": "custom", "name": "imported", "data": 1, "__proto__": {"polluted": true}}',
    ) as AgentEventInput;
    const stale = {
      type: 'custom',
      name: 'stale',
      data: 2,
      runId: 'old',
      turn: 99,
      seq: -1,
    } as AgentEventInput;
    const report = defineTool({
      name: 'report',
      description: 'emits events',
      parameters: z.object({}),
      execute: (_input, context) => {
        context.run?.emit({ type: 'custom', name: 'progress', data: { done: 1 } });
        context.run?.emit(fromJson as unknown as ToolEventInput);
        context.run?.emit(stale as unknown as ToolEventInput);
        return 'reported';
      },
    });
    const agent = stepAgent({
      provider: inlineProvider([[toolDone('report', {})], [textDone('done')]]),
      tools: [report],
    });
    const run = agent.prompt('go');
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result();
    const custom = events.filter((event) => event.type === 'custom');
    expect(custom.map((event) => event.name)).toEqual(['progress', 'imported', 'stale']);
    for (const event of custom) {
      expect(event).toMatchObject({ runId: result.runId, turn: 1 });
      expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    }
    const seqs = events.map((event) => event.seq);
    expect(seqs).toEqual(seqs.map((_, index) => index));
    expect(Object.hasOwn(custom[1] as object, '__proto__')).toBe(true);
    expect((custom[1] as { polluted?: unknown }).polluted).toBeUndefined();
    expect(stale).toMatchObject({ runId: 'old', turn: 99, seq: -1 });
  });
});
