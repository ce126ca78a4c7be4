import { type AgentEvent, type CustomEvent, isCustomEvent } from '@agent-core/core';
import type { PlanEventData, ReplanEventData, StepEndEventData, StepStartEventData } from './plan-execute.js';

/** `data` of the `plan_invalid` custom event: what was wrong with the plan and which attempt it was. */
export interface PlanInvalidEventData {
  problem: string;
  attempt: number;
}

/** The `custom` events plan-execute emits, by name. */
export interface PlanExecuteEvents {
  plan: CustomEvent<'plan', PlanEventData>;
  step_start: CustomEvent<'step_start', StepStartEventData>;
  step_end: CustomEvent<'step_end', StepEndEventData>;
  replan: CustomEvent<'replan', ReplanEventData>;
  plan_invalid: CustomEvent<'plan_invalid', PlanInvalidEventData>;
}

/** Any `custom` event plan-execute emits. */
export type PlanExecuteEvent = PlanExecuteEvents[keyof PlanExecuteEvents];

const names: ReadonlySet<string> = new Set(['plan', 'step_start', 'step_end', 'replan', 'plan_invalid']);

/**
 * Narrows an event to one of plan-execute's `custom` events, so `switch (event.name)`
 * gives each its typed `data` without a cast.
 *
 * @example
 * if (isPlanExecuteEvent(event) && event.name === 'step_end') console.log(event.data.status);
 */
export function isPlanExecuteEvent(event: AgentEvent): event is PlanExecuteEvent {
  return event.type === 'custom' && names.has(event.name);
}

/** Narrows an event to the plan-execute `custom` event called `name`. */
export function isPlanExecuteEventOf<Name extends keyof PlanExecuteEvents>(
  event: AgentEvent,
  name: Name,
): event is PlanExecuteEvents[Name] {
  return isCustomEvent(event, name);
}
