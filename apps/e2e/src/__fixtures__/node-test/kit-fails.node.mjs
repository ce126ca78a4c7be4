// A tool loop that calls the model again before running the calls it was given: under node:test
// the kit fails with the rule's name and the seed.
import { describe, test } from 'node:test';
import { toolCallsOf } from '@agent-core/core';
import { orchestratorConformance } from '@agent-core/core/testing';

const forgetful = {
  name: 'forgets-tools',
  async run(ctx) {
    for (;;) {
      const stop = ctx.nextTurn();
      if (stop !== undefined) return { reason: stop };
      const reply = await ctx.callModel();
      if (!reply.ok) return { reason: reply.reason, error: reply.error };
      ctx.endTurn(reply.message);
      if (toolCallsOf(reply.message).length === 0) return { reason: 'completed' };
    }
  },
};

orchestratorConformance(forgetful, { test, describe, seed: 42 });
