import type { Agent } from '@agent-core/core';

/** Aborts `agent`'s run at its `count`th streamed text delta: an abort in the middle of a reply. */
export function abortAtTextDelta(agent: Agent, count: number): void {
  let deltas = 0;
  agent.subscribe((event) => {
    if (event.type === 'text_delta' && ++deltas === count) agent.abort();
  });
}
