import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, type AgentEvent, defineTool, type ModelEvent } from '../index.js';
import { inlineProvider, textDone, toolDone } from '../test-support/inline-provider.js';
import { stepOrchestrator } from '../test-support/step-orchestrator.js';
import { toolsOrchestrator } from '../test-support/tools-orchestrator.js';
import { stepAgent } from '../test-support/step-agent.js';

const add = defineTool({
  name: 'add',
  description: 'adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

/** Three tool turns (one of them streaming text and thinking, one failing its input check), then an answer. */
function script(): ModelEvent[][] {
  return [
    [toolDone('add', { a: 1, b: 2 }, 'c1')],
    [
      { type: 'thinking_delta', delta: 'hm' },
      { type: 'text_delta', delta: 'let me ' },
      { type: 'text_delta', delta: 'add' },
      toolDone('add', { a: 3, b: 4 }, 'c2'),
    ],
    [toolDone('add', { a: 'x' }, 'c3')],
    [textDone('7')],
  ];
}

function agentFor(parallel = false): Agent {
  return new Agent({
    provider: inlineProvider(script()),
    model: 'm',
    tools: [add],
    orchestrator: parallel ? toolsOrchestrator : stepOrchestrator,
  });
}

/** Run, trace and span ids replaced by labels in order of first appearance, so two runs compare. */
function normalized(events: readonly AgentEvent[]): unknown[] {
  const labels = new Map<string, string>();
  const label = (value: string) => {
    let name = labels.get(value);
    if (name === undefined) {
      name = `id${labels.size}`;
      labels.set(value, name);
    }
    return name;
  };
  return events.map((event) => {
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(event)) {
      if (key === 'runId' || key === 'traceId' || key === 'spanId' || key === 'parentSpanId')
        copy[key] = label(value as string);
      else if (key === 'durationMs') copy[key] = typeof value;
      else if (key === 'result' && event.type === 'agent_end') copy[key] = (value as { text: string }).text;
      else copy[key] = value;
    }
    // The same fields in the same order, whether the event was made at once or from its record.
    copy.keys = Object.keys(event).join(',');
    return copy;
  });
}

describe('events read late are the events a listener saw', () => {
  it.each([
    ['sequential', false],
    ['parallel', true],
  ])(
    'a %s run read after it ended gives the same events, fields and order as one a listener watched',
    async (_, parallel) => {
      const watched = agentFor(parallel);
      const seen: AgentEvent[] = [];
      watched.subscribe((event) => seen.push(event));
      await watched.prompt('add').result();

      const unread = agentFor(parallel);
      const run = unread.prompt('add');
      await run.result();
      const late: AgentEvent[] = [];
      for await (const event of run) late.push(event);

      expect(late.map((event) => event.seq)).toEqual(late.map((_, index) => index));
      expect(normalized(late)).toEqual(normalized(seen));
      expect(late.map((event) => event.type)).toContain('thinking_delta');
    },
  );

  it('a reader that pauses mid-run loses nothing: waiting reads and buffered reads interleave in order', async () => {
    const agent = agentFor();
    const run = agent.prompt('add');
    const events: AgentEvent[] = [];
    for await (const event of run) {
      events.push(event);
      // Fall behind now and then, so later events are kept as records while this one is handled.
      if (event.type === 'tool_call_start') await new Promise((resolve) => setTimeout(resolve, 2));
    }
    expect(events.map((event) => event.seq)).toEqual(events.map((_, index) => index));
    const watched = agentFor();
    const seen: AgentEvent[] = [];
    watched.subscribe((event) => seen.push(event));
    await watched.prompt('add').result();
    expect(normalized(events)).toEqual(normalized(seen));
  });

  it('span ids are W3C ids, distinct within the run, with turns under the run and calls under their turn', async () => {
    const run = agentFor().prompt('add');
    const result = await run.result();
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    const ids = new Set<string>();
    let turnSpan = '';
    for (const event of events) {
      if (!('spanId' in event) || event.type === 'agent_start' || event.type === 'tool_call_end') continue;
      if (event.type === 'message_end' || event.type === 'turn_end') continue;
      expect(event.spanId).toMatch(/^[0-9a-f]{16}$/);
      expect(event.spanId).not.toBe('0000000000000000');
      expect(ids.has(event.spanId)).toBe(false);
      ids.add(event.spanId);
      if (event.type === 'turn_start') {
        expect(event.parentSpanId).toBe(result.spanId);
        turnSpan = event.spanId;
      } else {
        expect(event.parentSpanId).toBe(turnSpan);
      }
    }
    // Three tool turns and the answer: four turns, four model calls, three tool calls.
    expect(ids.size).toBe(11);
    for (const event of events) {
      if (event.type === 'tool_call_end') {
        const start = events.find(
          (other) => other.type === 'tool_call_start' && other.toolCall.id === event.toolCall.id,
        );
        expect(start?.type === 'tool_call_start' && start.spanId).toBe(event.spanId);
      }
    }
  });

  it("a listener added mid-run gets the rest as objects, and the run's late reader still gets them all", async () => {
    const seen: AgentEvent[] = [];
    let agent: Agent | undefined;
    // The first call subscribes: events before it are kept as records, later ones are made at once.
    const subscribing = defineTool({
      name: 'add',
      description: 'adds two numbers',
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => {
        if (seen.length === 0) agent?.subscribe((event) => seen.push(event));
        return String(a + b);
      },
    });
    agent = stepAgent({ provider: inlineProvider(script()), tools: [subscribing] });
    const run = agent.prompt('add');
    await run.result();
    const all: AgentEvent[] = [];
    for await (const event of run) all.push(event);
    expect(seen[0]?.type).toBe('tool_call_end');
    expect(all.slice(all.length - seen.length)).toEqual(seen);
    expect(all.map((event) => event.seq)).toEqual(all.map((_, index) => index));
  });
});
