import { type Orchestrator, toolCallsOf } from '@agent-core/core';

/**
 * A tool loop written from core's helpers, as a user's own orchestrator would be:
 * a plugin may not import another plugin, so the tests that run an Agent bring it.
 */
export const toolLoop: Orchestrator = {
  name: 'test-tool-loop',
  async run(context) {
    for (;;) {
      const stop = context.nextTurn();
      if (stop !== undefined) return { reason: stop };
      const response = await context.callModel();
      if (!response.ok) return { reason: response.reason, error: response.error };
      const calls = toolCallsOf(response.message);
      if (calls.length === 0) {
        context.endTurn(response.message);
        return { reason: 'completed' };
      }
      for (const call of calls) await context.executeTool(call);
      context.endTurn(response.message);
    }
  },
};
