import type { AgentEvent, AgentEventOf } from './agent-event.js';

/** A `custom` event of one name whose `data` has a known type, as an orchestrator documents it. */
export type CustomEvent<Name extends string, Data> = AgentEventOf<'custom'> & { name: Name; data: Data };

/**
 * Narrows an event to the `custom` event called `name`. `Data` is the type
 * the emitting plugin documents for that name; plugins export guards built
 * on this (`isPlanEvent`, ...) so users need no type argument and no cast.
 *
 * @example
 * if (isCustomEvent<'plan', PlanEventData>(event, 'plan')) console.log(event.data.steps);
 */
export function isCustomEvent<Name extends string, Data = unknown>(
  event: AgentEvent,
  name: Name,
): event is CustomEvent<Name, Data> {
  return event.type === 'custom' && event.name === name;
}
