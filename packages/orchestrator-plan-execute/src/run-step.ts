import {
  messageText,
  type OrchestratorContext,
  type RunEnd,
  type ToolCallBlock,
  type ToolExecution,
  toolCallsOf,
} from '@agent-core/core';
import { stepFailure } from './plan-prompts.js';

/** How one step ended: with an answer, failed (and re-planned), or with the whole run stopping. */
export type StepOutcome =
  | { kind: 'done'; result: string }
  | { kind: 'failed'; reason: string; result: string }
  | { kind: 'stopped'; end: RunEnd };

/**
 * Runs one step as an inner tool loop: model, tools, model... until the model
 * answers without tool calls. The step fails when the answer starts with
 * `STEP_FAILED:` or when it used `maxStepTurns` model calls without an answer.
 * The step's text streams as `thinking_delta`: it is work, not the answer.
 */
export async function runStep(
  context: OrchestratorContext,
  toolExecution: ToolExecution,
  maxStepTurns: number,
): Promise<StepOutcome> {
  const onTextDelta = (delta: string) => context.emit({ type: 'thinking_delta', delta });
  for (let calls = 0; ; calls++) {
    // A run stopped in the step's last call (an abort, a call waiting for approval) stops here: a
    // failed step would re-plan, and the message that asks for it would answer a waiting call as skipped.
    if (context.aborted) return { kind: 'stopped', end: { reason: context.nextTurn() ?? 'aborted' } };
    if (calls >= maxStepTurns) {
      const reason = `it used ${maxStepTurns} model calls without an answer (maxStepTurns).`;
      return { kind: 'failed', reason, result: '' };
    }
    const stop = context.nextTurn();
    if (stop !== undefined) return { kind: 'stopped', end: { reason: stop } };
    const response = await context.callModel({ onTextDelta });
    if (!response.ok) return { kind: 'stopped', end: { reason: response.reason, error: response.error } };
    const message = response.message;
    const toolCalls = toolCallsOf(message);
    if (toolCalls.length === 0) {
      context.endTurn(message);
      const result = messageText(message).trim();
      const reason = stepFailure(result);
      return reason === undefined ? { kind: 'done', result } : { kind: 'failed', reason, result };
    }
    // Steering that arrived while the model was answering: none of its calls run.
    if (context.pollSteering().length > 0) {
      context.endTurn(message);
      continue;
    }
    if (toolExecution === 'parallel') {
      await context.executeTools(toolCalls);
      if (!context.aborted) context.pollSteering();
    } else {
      await runSequentially(context, toolCalls);
    }
    context.endTurn(message);
  }
}

async function runSequentially(context: OrchestratorContext, calls: readonly ToolCallBlock[]): Promise<void> {
  for (const call of calls) {
    await context.executeTool(call);
    if (context.aborted) return;
    // Steering skips the remaining calls (appending it answers them) and reaches the model next.
    if (context.pollSteering().length > 0) return;
  }
}
