import type { Agent, AgentEvent } from '@agent-core/core';
import { expect } from 'vitest';

/** Aborts `agent`'s run at its `count`th streamed text delta: an abort in the middle of a reply. */
export function abortAtTextDelta(agent: Agent, count: number): void {
  let deltas = 0;
  agent.subscribe((event) => {
    if (event.type === 'text_delta' && ++deltas === count) agent.abort();
  });
}

/** Prompts `agent` with `text(turn)` for turns 1 to `turns`, each run checked to complete without error; returns every event. */
export async function promptTurns(
  agent: Agent,
  turns: number,
  text: (turn: number) => string,
): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    const run = agent.prompt(text(turn));
    for await (const event of run) events.push(event);
    const result = await run.result();
    expect(result.error?.message).toBeUndefined();
    expect(result.terminateReason).toBe('completed');
  }
  return events;
}
