import {
  AgentError,
  type AssistantMessage,
  messageText,
  type OrchestratorContext,
  type RunEnd,
} from '@agent-core/core';
import type { PlanInvalidEventData } from './plan-events.js';
import { type PlanStep, parsePlan } from './parse-plan.js';
import { planCorrection } from './plan-prompts.js';

/** A plan, or how the run ends instead. */
export type PlanOutcome = { ok: true; steps: PlanStep[] } | { ok: false; end: RunEnd };

const ignoreText = () => {};

/** Asks for a plan (appending the request for it), and sends an invalid one back once. */
export async function makePlan(
  context: OrchestratorContext,
  maxSteps: number,
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
    const plan = parsePlan(messageText(reply), maxSteps);
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
export function textOnly(message: AssistantMessage): AssistantMessage {
  if (!message.content.some((block) => block.type === 'toolCall')) return message;
  return { ...message, content: message.content.filter((block) => block.type !== 'toolCall') };
}
