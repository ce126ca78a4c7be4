import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  type AgentEvent,
  type AgentOptions,
  type AgentResult,
  defineTool,
  type ModelEvent,
} from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { z } from 'zod';

/** A fresh folder for cassette files. */
export function cassetteFolder(): string {
  return mkdtempSync(join(tmpdir(), 'agent-core-cassette-'));
}

/** `add` adds two numbers; `offset` is added too, so a test can change what the tool answers. */
export function addTool(offset = 0) {
  return defineTool({
    name: 'add',
    description: 'Adds two numbers',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: ({ a, b }) => String(a + b + offset),
  });
}

/** An agent with the step orchestrator and the `add` tool. */
export function agentWith(options: Partial<AgentOptions> & Pick<AgentOptions, 'provider'>): Agent {
  return new Agent({
    model: 'test-model',
    systemPrompt: 'You add numbers.',
    tools: [addTool()],
    orchestrator: stepOrchestrator,
    ...options,
  });
}

/** Runs a prompt and collects its events and result. */
export async function runPrompt(
  agent: Agent,
  prompt: string,
): Promise<{ events: AgentEvent[]; result: AgentResult }> {
  const run = agent.prompt(prompt);
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return { events, result: await run.result() };
}

const runSpecific = new Set(['runId', 'traceId', 'spanId', 'parentSpanId', 'durationMs', 'metrics', 'at']);

/** A value without what differs from run to run of the same conversation (ids of runs and spans, durations). */
export function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Error) return { name: value.name, message: value.message };
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !runSpecific.has(key))
      .map(([key, field]) => [key, stable(field)]),
  );
}

/** Every event of a provider's stream. */
export async function collect(stream: AsyncIterable<ModelEvent>): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}
