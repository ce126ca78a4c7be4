import type { AgentEvent, AgentEventInput } from '../events/agent-event.js';

/**
 * An orchestrator's event as the run delivers it: a copy of its input with
 * the run's id, turn and sequence number.
 */
export function stampedEvent(event: AgentEventInput, runId: string, turn: number, seq: number): AgentEvent {
  // Not a spread: on Node 20 a spread of inputs of many shapes (governance events, a subagent's
  // forwarded events) is a slow generic copy, about 1 µs, where Object.assign takes a fifth of it.
  // Assign would set an own `__proto__` key as the prototype, so such an input is spread.
  const input = event as Record<string, unknown>;
  const stamped = Object.hasOwn(input, '__proto__') ? { ...input } : Object.assign({}, input);
  stamped.runId = runId;
  stamped.turn = turn;
  stamped.seq = seq;
  return stamped as unknown as AgentEvent;
}
