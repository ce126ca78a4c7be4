import {
  type Orchestrator,
  type OrchestratorContext,
  type RunEnd,
  type ToolCallBlock,
  type ToolExecution,
  toolCallsOf,
} from '@agent-core/core';

/** Options of `agentic()`. */
export interface AgenticOptions {
  /** Overrides the agent's `toolExecution`. */
  toolExecution?: ToolExecution;
}

/**
 * The default tool loop: call the model; run the tool calls it asks for
 * (one by one with a steering check after each, or all at once); repeat
 * until it answers without tools; then take follow-up messages, if any, and go on.
 *
 * @example
 * const agent = new Agent({ provider, model, tools, orchestrator: agentic({ toolExecution: 'parallel' }) });
 */
export function agentic(options: AgenticOptions = {}): Orchestrator {
  return {
    name: 'agentic',
    run: (context) => runAgentic(context, options.toolExecution ?? context.settings.toolExecution),
  };
}

async function runAgentic(context: OrchestratorContext, toolExecution: ToolExecution): Promise<RunEnd> {
  for (;;) {
    const stop = context.nextTurn();
    if (stop !== undefined) return { reason: stop };

    const response = await context.callModel();
    if (!response.ok) return { reason: response.reason, error: response.error };
    const message = response.message;
    const calls = toolCallsOf(message);

    if (calls.length === 0) {
      context.endTurn(message);
      // Follow-ups first, then steering that arrived too late to interrupt anything.
      if (context.pollFollowUp().length > 0 || context.pollSteering().length > 0) continue;
      return { reason: message.stopReason === 'max_tokens' ? 'output_limit' : 'completed' };
    }

    // Steering that arrived while the model was still answering: it decided without the
    // user's new word, so none of its calls run (appending the steering answers them as skipped).
    if (context.pollSteering().length > 0) {
      context.endTurn(message);
      continue;
    }
    if (calls.length === 1) {
      // The common turn of one call, in either mode (one call runs alone either way), without a
      // helper's async frame: the same steps as runSequentially, and as executeTools for one call.
      await context.executeTool(calls[0] as ToolCallBlock);
      if (!context.aborted) context.pollSteering();
    } else if (toolExecution === 'parallel') {
      await context.executeTools(calls);
      if (!context.aborted) context.pollSteering();
    } else {
      await runSequentially(context, calls);
    }
    context.endTurn(message);
  }
}

async function runSequentially(context: OrchestratorContext, calls: readonly ToolCallBlock[]): Promise<void> {
  for (const call of calls) {
    await context.executeTool(call);
    if (context.aborted) return;
    // Steering messages skip the remaining calls: appending them answers those calls as skipped.
    if (context.pollSteering().length > 0) return;
  }
}
