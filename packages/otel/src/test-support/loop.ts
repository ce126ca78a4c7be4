import { type Orchestrator, toolCallsOf } from '@agent-core/core';

/** The smallest tool loop (plugins may not import orchestrator packages): sequential, or all calls at once. */
export function loop(parallel = false): Orchestrator {
  return {
    name: 'test-loop',
    async run(context) {
      for (;;) {
        const stop = context.nextTurn();
        if (stop !== undefined) return { reason: stop };
        const response = await context.callModel();
        if (!response.ok) return { reason: response.reason, error: response.error };
        const calls = toolCallsOf(response.message);
        if (parallel) await context.executeTools(calls);
        else for (const call of calls) await context.executeTool(call);
        context.endTurn(response.message);
        if (calls.length === 0) return { reason: 'completed' };
      }
    },
  };
}
