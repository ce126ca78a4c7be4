import { type Orchestrator, toolCallsOf } from '../index.js';

/** The smallest complete tool loop, for core's tests. */
export const stepOrchestrator: Orchestrator = {
  name: 'steps',
  async run(ctx) {
    for (;;) {
      const stop = ctx.nextTurn();
      if (stop !== undefined) return { reason: stop };
      const response = await ctx.callModel();
      if (!response.ok) return { reason: response.reason, error: response.error };
      const calls = toolCallsOf(response.message);
      for (const call of calls) await ctx.executeTool(call);
      ctx.endTurn(response.message);
      if (calls.length === 0) return { reason: 'completed' };
    }
  },
};
