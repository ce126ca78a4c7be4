import { type Orchestrator, toolCallsOf } from '../index.js';

/** A tool loop like `stepOrchestrator` that runs each response's calls in parallel, for core's tests. */
export const toolsOrchestrator: Orchestrator = {
  name: 'parallel-steps',
  async run(ctx) {
    for (;;) {
      const stop = ctx.nextTurn();
      if (stop !== undefined) return { reason: stop };
      const response = await ctx.callModel();
      if (!response.ok) return { reason: response.reason, error: response.error };
      const calls = toolCallsOf(response.message);
      if (calls.length > 0) await ctx.executeTools(calls);
      ctx.endTurn(response.message);
      if (calls.length === 0) return { reason: 'completed' };
    }
  },
};
