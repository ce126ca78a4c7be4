import {
  AgentError,
  type AssistantMessage,
  ConfigError,
  messageText,
  type Orchestrator,
  type OrchestratorContext,
  type RunEnd,
  type ToolExecution,
} from '@agent-core/core';
import type { PlanInvalidEventData } from './plan-events.js';
import { type PlanStep, parsePlan } from './parse-plan.js';
import {
  planCorrection,
  planningInstruction,
  replanInstruction,
  stepInstruction,
  summaryInstruction,
} from './plan-prompts.js';
import { runStep } from './run-step.js';

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

interface Settings {
  maxReplans: number;
  maxStepTurns: number;
  maxSteps: number;
  toolExecution: ToolExecution | undefined;
}

type PlanOutcome = { ok: true; steps: PlanStep[] } | { ok: false; end: RunEnd };

const ignoreText = () => {};

/**
 * Plan and execute: the model first writes a plan (JSON steps, checked with
 * zod, sent back once when invalid), then each step runs as its own tool
 * loop, with a new plan when a step fails, and finally a short answer sums
 * the steps up. Progress shows as `custom` events: `plan`, `step_start`,
 * `step_end`, `replan`.
 *
 * @example
 * const agent = new Agent({ provider, model, tools, orchestrator: planExecute({ maxReplans: 1 }) });
 */
export function planExecute(options: PlanExecuteOptions = {}): Orchestrator {
  const settings: Settings = {
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

async function runPlanExecute(context: OrchestratorContext, settings: Settings): Promise<RunEnd> {
  const toolExecution = settings.toolExecution ?? context.settings.toolExecution;
  // One cycle per request: the prompt, then each follow-up.
  for (;;) {
    const planned = await makePlan(context, settings, planningInstruction(context.tools, settings.maxSteps));
    if (!planned.ok) return planned.end;
    let steps = planned.steps;
    context.emit({ type: 'custom', name: 'plan', data: { steps } satisfies PlanEventData });
    if (!context.aborted) context.pollSteering();

    const done: PlanStep[] = [];
    let replans = 0;
    let next = 0;
    while (next < steps.length) {
      const step = steps[next] as PlanStep;
      const index = done.length;
      const total = index + steps.length - next;
      context.emit({
        type: 'custom',
        name: 'step_start',
        data: { index, total, step } satisfies StepStartEventData,
      });
      context.append({ role: 'user', content: stepInstruction(step, index + 1, total) });
      const outcome = await runStep(context, toolExecution, settings.maxStepTurns);
      if (outcome.kind === 'stopped') return outcome.end;
      const end: StepEndEventData = {
        index,
        step,
        status: outcome.kind,
        result: outcome.result,
      };
      if (outcome.kind === 'failed') end.reason = outcome.reason;
      context.emit({ type: 'custom', name: 'step_end', data: end });
      if (!context.aborted) context.pollSteering();
      if (outcome.kind === 'done') {
        done.push(step);
        next++;
        continue;
      }
      if (replans >= settings.maxReplans) {
        return {
          reason: 'error',
          error: new AgentError(
            'plan_step_failed',
            `Step "${step.title}" failed and no re-plan is left (maxReplans: ${settings.maxReplans}): ${outcome.reason}`,
          ),
        };
      }
      replans++;
      const instruction = replanInstruction(step, outcome.reason, done, context.tools, settings.maxSteps);
      const replanned = await makePlan(context, settings, instruction);
      if (!replanned.ok) return replanned.end;
      steps = replanned.steps;
      next = 0;
      const data: ReplanEventData = { attempt: replans, failedIndex: index, reason: outcome.reason, steps };
      context.emit({ type: 'custom', name: 'replan', data });
    }

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

/** Asks for a plan (appending the request for it), and sends an invalid one back once. */
async function makePlan(
  context: OrchestratorContext,
  settings: Settings,
  instruction: string,
): Promise<PlanOutcome> {
  context.append({ role: 'user', content: instruction });
  for (let attempt = 0; ; attempt++) {
    const stop = context.nextTurn();
    if (stop !== undefined) return { ok: false, end: { reason: stop } };
    // The tools stay declared (histories with tool calls need them) but may not be called while planning.
    const response = await context.callModel({ toolChoice: 'none', append: false, onTextDelta: ignoreText });
    if (!response.ok) return { ok: false, end: { reason: response.reason, error: response.error } };
    const reply = textOnly(response.message);
    if (reply.content.length > 0) context.append(reply);
    context.endTurn(reply);
    const plan = parsePlan(messageText(reply), settings.maxSteps);
    if (plan.ok) return plan;
    context.emit({
      type: 'custom',
      name: 'plan_invalid',
      data: { problem: plan.problem, attempt: attempt + 1 } satisfies PlanInvalidEventData,
    });
    if (attempt >= 1) {
      return {
        ok: false,
        end: {
          reason: 'error',
          error: new AgentError(
            'plan_invalid',
            `The model's plan was invalid twice, so the run stopped. Last problem: ${plan.problem}`,
          ),
        },
      };
    }
    context.append({ role: 'user', content: planCorrection(plan.problem) });
  }
}

/** A reply without tool calls: planning and summing up must not leave calls that never run. */
function textOnly(message: AssistantMessage): AssistantMessage {
  if (!message.content.some((block) => block.type === 'toolCall')) return message;
  return { ...message, content: message.content.filter((block) => block.type !== 'toolCall') };
}
