import type { OrchestratorTool } from '@agent-core/core';
import type { PlanStep } from './parse-plan.js';

/** The marker a step's answer starts with when the step could not be done. */
export const stepFailedMarker = 'STEP_FAILED:';

const planShape = '{"steps": [{"title": "a short title", "instruction": "what to do in this step"}]}';

function toolList(tools: readonly OrchestratorTool[]): string {
  if (tools.length === 0) return 'No tools are available; plan steps you can do by reasoning alone.';
  return `Tools the steps can use:\n${tools.map((tool) => `- ${tool.name}: ${tool.description}`).join('\n')}`;
}

/** Asks for a plan for the request above it. */
export function planningInstruction(tools: readonly OrchestratorTool[], maxSteps: number): string {
  return [
    'Before doing anything, write a plan for the request above. Reply with JSON only, in this shape:',
    planShape,
    `Use 1 to ${maxSteps} steps, in order. Do not carry out the steps yet.`,
    '',
    toolList(tools),
  ].join('\n');
}

/** Sends an invalid plan back once, with what was wrong. */
export function planCorrection(problem: string): string {
  return `That plan could not be used: ${problem} Reply again with JSON only, in this shape:\n${planShape}`;
}

/** Starts one step. */
export function stepInstruction(step: PlanStep, number: number, total: number): string {
  return [
    `Step ${number} of ${total}: ${step.title}`,
    step.instruction,
    '',
    `Do this step now, using tools if they help. When it is done, reply with its result. If it cannot be done, reply with ${stepFailedMarker} and the reason.`,
  ].join('\n');
}

/** Asks for a new plan after a failed step. */
export function replanInstruction(
  failed: PlanStep,
  reason: string,
  done: readonly PlanStep[],
  tools: readonly OrchestratorTool[],
  maxSteps: number,
): string {
  const completed =
    done.length === 0
      ? 'No step is done yet.'
      : `Steps already done (do not repeat them): ${done.map((step) => step.title).join('; ')}.`;
  return [
    `Step "${failed.title}" failed: ${reason}`,
    completed,
    `Write a new plan for the rest of the work, with 1 to ${maxSteps} steps. Reply with JSON only, in this shape:`,
    planShape,
    '',
    toolList(tools),
  ].join('\n');
}

/** Asks for the final answer once every step is done. */
export function summaryInstruction(): string {
  return 'All steps are done. Now answer the original request for the user, briefly, from the results of the steps.';
}

/** The reason a step's answer gives for failing, or undefined when the step succeeded. */
export function stepFailure(answer: string): string | undefined {
  const match = /^\s*[*_`]*STEP[_ ]FAILED[*_`]*\s*:?\s*/i.exec(answer);
  if (match === null) return undefined;
  const reason = answer.slice(match[0].length).trim();
  return reason === '' ? 'the step reported a failure without a reason.' : reason;
}
