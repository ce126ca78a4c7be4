import { historyProblems, type AgentEvent, type AgentMessage } from '@agent-core/core';
import { expect } from 'vitest';

/** Asserts the history could be sent to any provider as it is (see core's `historyProblems`). */
export function expectValidHistory(messages: readonly AgentMessage[]): void {
  expect(historyProblems(messages)).toEqual([]);
}

/** The event types of a run, in order. */
export function typesOf(events: readonly AgentEvent[]): string[] {
  return events.map((event) => event.type);
}

/** Collects every event of a run, then its result. */
export async function collect(run: AsyncIterable<AgentEvent> & { result(): Promise<unknown> }) {
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}
