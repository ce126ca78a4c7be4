import { AgentError, type OrchestratorContext, type RunEnd, type ToolExecution } from '@agent-core/core';
import { makePlan } from './make-plan.js';
import type { PlanStep } from './parse-plan.js';
import type { PlanSettings, ReplanEventData, StepEndEventData, StepStartEventData } from './plan-execute.js';
import type { PlanProgress } from './plan-progress.js';
import { replanInstruction, stepInstruction } from './plan-prompts.js';
import { runStep } from './run-step.js';

/**
 * Runs the plan's steps from `progress.next`, re-planning after a failed step
 * while re-plans are left. `continuing`: the run resumed inside that step, so
 * it is not announced or instructed again. Saves the progress before each step.
 * Returns how the run ends when it stops early; undefined once every step is done.
 */
export async function runSteps(
  context: OrchestratorContext,
  settings: PlanSettings & { toolExecution: ToolExecution },
  progress: PlanProgress,
  continuing: boolean,
): Promise<RunEnd | undefined> {
  let fresh = !continuing;
  while (progress.next < progress.steps.length) {
    const step = progress.steps[progress.next] as PlanStep;
    const index = progress.done.length;
    if (fresh) {
      const total = index + progress.steps.length - progress.next;
      context.emit({
        type: 'custom',
        name: 'step_start',
        data: { index, total, step } satisfies StepStartEventData,
      });
      context.append({ role: 'user', content: stepInstruction(step, index + 1, total) });
    }
    fresh = true;
    context.saveState(progress);
    const outcome = await runStep(context, settings.toolExecution, settings.maxStepTurns);
    if (outcome.kind === 'stopped') return outcome.end;
    const end: StepEndEventData = { index, step, status: outcome.kind, result: outcome.result };
    if (outcome.kind === 'failed') end.reason = outcome.reason;
    context.emit({ type: 'custom', name: 'step_end', data: end });
    if (!context.aborted) context.pollSteering();
    if (outcome.kind === 'done') {
      progress = { ...progress, next: progress.next + 1, done: [...progress.done, step] };
      continue;
    }
    if (progress.replans >= settings.maxReplans) {
      return {
        reason: 'error',
        error: new AgentError(
          'plan_step_failed',
          `Step "${step.title}" failed and no re-plan is left (maxReplans: ${settings.maxReplans}): ${outcome.reason}`,
        ),
      };
    }
    const replans = progress.replans + 1;
    const instruction = replanInstruction(
      step,
      outcome.reason,
      progress.done,
      context.tools,
      settings.maxSteps,
    );
    const replanned = await makePlan(context, settings.maxSteps, instruction);
    if (!replanned.ok) return replanned.end;
    progress = { steps: replanned.steps, next: 0, done: progress.done, replans };
    const data: ReplanEventData = {
      attempt: replans,
      failedIndex: index,
      reason: outcome.reason,
      steps: replanned.steps,
    };
    context.emit({ type: 'custom', name: 'replan', data });
  }
  return undefined;
}
