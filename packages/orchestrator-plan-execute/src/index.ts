import './register.js';

export { planExecute } from './plan-execute.js';
export type {
  PlanEventData,
  PlanExecuteOptions,
  ReplanEventData,
  StepEndEventData,
  StepStartEventData,
} from './plan-execute.js';
export { isPlanExecuteEvent, isPlanExecuteEventOf } from './plan-events.js';
export type { PlanExecuteEvent, PlanExecuteEvents, PlanInvalidEventData } from './plan-events.js';
export { parsePlan } from './parse-plan.js';
export type { PlanParseResult, PlanStep } from './parse-plan.js';
export { stepFailedMarker } from './plan-prompts.js';
