import type { Orchestrator } from '../orchestrator/orchestrator.js';
import { toolCallsOf } from '../messages/messages.js';

/**
 * The smallest complete tool loop, for tests that need an orchestrator without
 * depending on one: each turn calls the model, runs its tool calls (one by
 * one, or together when the agent's `toolExecution` is `parallel`), and ends
 * the run when the model answers without tools. It takes no steering or
 * follow-up messages.
 */
export const stepOrchestrator: Orchestrator = {
  name: 'steps',
  async run(ctx) {
    for (;;) {
      const stop = ctx.nextTurn();
      if (stop !== undefined) return { reason: stop };
      const response = await ctx.callModel();
      if (!response.ok) return { reason: response.reason, error: response.error };
      const calls = toolCallsOf(response.message);
      if (ctx.settings.toolExecution === 'parallel' && calls.length > 0) await ctx.executeTools(calls);
      else for (const call of calls) await ctx.executeTool(call);
      ctx.endTurn(response.message);
      if (calls.length === 0) return { reason: 'completed' };
    }
  },
};
