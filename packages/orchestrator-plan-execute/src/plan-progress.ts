import type { PlanStep } from './parse-plan.js';

/**
 * Where a run stands in its plan, saved with the run (`ctx.saveState`) before
 * each step, so a pause inside a step resumes there: the steps, the next one
 * to run (the one in progress), those done and the re-plans used. Plain JSON.
 */
export interface PlanProgress {
  steps: PlanStep[];
  next: number;
  done: PlanStep[];
  replans: number;
}

function isStep(value: unknown): value is PlanStep {
  const step = value as Partial<PlanStep> | null;
  return (
    typeof step === 'object' &&
    step !== null &&
    typeof step.title === 'string' &&
    typeof step.instruction === 'string'
  );
}

/** The progress a paused run saved, or undefined when `saved` is not one (nothing saved, or another shape): the run plans anew. */
export function savedProgress(saved: unknown): PlanProgress | undefined {
  const progress = saved as Partial<PlanProgress> | null | undefined;
  if (typeof progress !== 'object' || progress === null) return undefined;
  const { steps, next, done, replans } = progress;
  if (!Array.isArray(steps) || !steps.every(isStep) || !Array.isArray(done) || !done.every(isStep))
    return undefined;
  if (!Number.isInteger(next) || (next as number) < 0 || (next as number) >= steps.length) return undefined;
  if (!Number.isInteger(replans) || (replans as number) < 0) return undefined;
  return { steps, next: next as number, done, replans: replans as number };
}
