import {
  ConfigError,
  messageText,
  type Orchestrator,
  type OrchestratorContext,
  type RunEnd,
  type ToolExecution,
} from '@agent-core/core';
import { makePlan, textOnly } from './make-plan.js';
import type { PlanStep } from './parse-plan.js';
import { savedProgress } from './plan-progress.js';
import { planningInstruction, summaryInstruction } from './plan-prompts.js';
import { runSteps } from './run-steps.js';

/** Options of `planExecute()`. */
export interface PlanExecuteOptions {
  /** New plans allowed per request after failed steps; one more failure ends the run with `error`. Default 2. */
  maxReplans?: number;
  /** Model calls one step may make; a step that reaches it without an answer has failed. Default 10. */
  maxStepTurns?: number;
  /** Steps a plan may have. Default 10. */
  maxSteps?: number;
  /** Overrides the agent's `toolExecution` inside steps. */
  toolExecution?: ToolExecution;
}

/** `data` of the `plan` custom event. */
export interface PlanEventData {
  steps: PlanStep[];
}

/** `data` of the `step_start` custom event. `index` counts from 0 across re-plans. */
export interface StepStartEventData {
  index: number;
  total: number;
  step: PlanStep;
}

/** `data` of the `step_end` custom event. */
export interface StepEndEventData {
  index: number;
  step: PlanStep;
  status: 'done' | 'failed';
  /** The step's answer. */
  result: string;
  /** Why the step failed, when it did. */
  reason?: string;
}

/** `data` of the `replan` custom event: the steps that replace the failed one and those after it. */
export interface ReplanEventData {
  attempt: number;
  failedIndex: number;
  reason: string;
  steps: PlanStep[];
}

/** The settings of one `planExecute()` orchestrator. */
export interface PlanSettings {
  maxReplans: number;
  maxStepTurns: number;
  maxSteps: number;
  toolExecution: ToolExecution | undefined;
}

/**
 * Plan and execute: the model first writes a plan (JSON steps, checked with
 * zod, sent back once when invalid), then each step runs as its own tool
 * loop, with a new plan when a step fails, and finally a short answer sums
 * the steps up. Progress shows as `custom` events: `plan`, `step_start`,
 * `step_end`, `replan`. The plan and the progress through it are saved with
 * the run (`ctx.saveState`), so a run that pauses for approval in a step goes
 * on with that step when it resumes, without planning again.
 *
 * @example
 * const agent = new Agent({ provider, model, tools, orchestrator: planExecute({ maxReplans: 1 }) });
 */
export function planExecute(options: PlanExecuteOptions = {}): Orchestrator {
  const settings: PlanSettings = {
    maxReplans: count('maxReplans', options.maxReplans ?? 2, 0),
    maxStepTurns: count('maxStepTurns', options.maxStepTurns ?? 10, 1),
    maxSteps: count('maxSteps', options.maxSteps ?? 10, 1),
    toolExecution: options.toolExecution,
  };
  return { name: 'plan-execute', run: (context) => runPlanExecute(context, settings) };
}

function count(name: string, value: number, minimum: number): number {
  if (!Number.isInteger(value) || value < minimum) {
    throw new ConfigError(
      `planExecute(): ${name} must be a whole number of ${minimum} or more, got ${value}.`,
    );
  }
  return value;
}

async function runPlanExecute(context: OrchestratorContext, settings: PlanSettings): Promise<RunEnd> {
  const toolExecution = settings.toolExecution ?? context.settings.toolExecution;
  // A resumed run goes on with the step it paused in: its plan and progress were saved before it.
  let resumed = context.resuming ? savedProgress(context.savedState) : undefined;
  // One cycle per request: the prompt, then each follow-up.
  for (;;) {
    let progress = resumed;
    resumed = undefined;
    const continuing = progress !== undefined;
    if (progress === undefined) {
      const planned = await makePlan(
        context,
        settings.maxSteps,
        planningInstruction(context.tools, settings.maxSteps),
      );
      if (!planned.ok) return planned.end;
      progress = { steps: planned.steps, next: 0, done: [], replans: 0 };
      context.emit({ type: 'custom', name: 'plan', data: { steps: planned.steps } satisfies PlanEventData });
      if (!context.aborted) context.pollSteering();
    }
    const stopped = await runSteps(context, { ...settings, toolExecution }, progress, continuing);
    if (stopped !== undefined) return stopped;

    context.append({ role: 'user', content: summaryInstruction() });
    const stop = context.nextTurn();
    if (stop !== undefined) return { reason: stop };
    // The summary is the answer: its text streams as text_delta.
    const response = await context.callModel({ toolChoice: 'none', append: false });
    if (!response.ok) return { reason: response.reason, error: response.error };
    const answer = textOnly(response.message);
    if (answer.content.length > 0) context.append(answer);
    context.endTurn(answer);
    // Follow-ups first, then steering that arrived too late to interrupt anything: each is a new request.
    if (context.pollFollowUp().length > 0 || context.pollSteering().length > 0) continue;
    return {
      reason: answer.stopReason === 'max_tokens' ? 'output_limit' : 'completed',
      text: messageText(answer),
    };
  }
}
