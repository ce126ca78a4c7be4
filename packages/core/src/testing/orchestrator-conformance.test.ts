import { describe, expect, it, test } from 'vitest';
import { firstFailure } from '../test-support/first-failure.js';
import type { Orchestrator, OrchestratorContext, RunEnd } from '../orchestrator/orchestrator.js';
import { toolCallsOf } from '../messages/messages.js';
import { toolsOrchestrator } from '../test-support/tools-orchestrator.js';
import { orchestratorConformance } from './orchestrator-conformance.js';
import { stepOrchestrator } from './step-orchestrator.js';

// Core's own smallest loops pass the kit on what they claim (they take no queued messages).
orchestratorConformance(stepOrchestrator, {
  test,
  describe,
  capabilities: { parallel: false, steering: false, followUps: false },
});
orchestratorConformance(toolsOrchestrator, {
  test,
  describe,
  capabilities: { steering: false, followUps: false },
});

/** A tool loop like `stepOrchestrator` with one step changed by `mistake`. */
function loop(name: string, step: (ctx: OrchestratorContext) => Promise<RunEnd | undefined>): Orchestrator {
  return {
    name,
    async run(ctx) {
      for (;;) {
        const end = await step(ctx);
        if (end !== undefined) return end;
      }
    },
  };
}

describe('the kit fails each mistake with the rule it breaks', () => {
  it('a loop that calls the model again before running the tools: unanswered_tool_calls', async () => {
    const forgetful = loop('forgets-tools', async (ctx) => {
      const stop = ctx.nextTurn();
      if (stop !== undefined) return { reason: stop };
      const reply = await ctx.callModel();
      if (!reply.ok) return { reason: reply.reason, error: reply.error };
      ctx.endTurn(reply.message);
      return toolCallsOf(reply.message).length === 0 ? { reason: 'completed' } : undefined;
    });
    const failure = await firstFailure(orchestratorConformance(forgetful, { seed: 7 }));
    expect(failure?.rule).toBe('unanswered_tool_calls');
  });

  it('a loop that runs a batch with one call given twice: duplicate_tool_call_in_batch', async () => {
    const doubled = loop('doubles-calls', async (ctx) => {
      const stop = ctx.nextTurn();
      if (stop !== undefined) return { reason: stop };
      const reply = await ctx.callModel();
      if (!reply.ok) return { reason: reply.reason, error: reply.error };
      const calls = toolCallsOf(reply.message);
      if (calls.length > 0) await ctx.executeTools([...calls, ...calls]);
      ctx.endTurn(reply.message);
      return calls.length === 0 ? { reason: 'completed' } : undefined;
    });
    const failure = await firstFailure(orchestratorConformance(doubled, { seed: 7 }));
    expect(failure?.rule).toBe('duplicate_tool_call_in_batch');
  });

  it('a loop that never checks nextTurn or the abort: stops_when_told, with the seed and the smallest script', async () => {
    const heedless = loop('heedless', async (ctx) => {
      const reply = await ctx.callModel();
      if (!reply.ok) return undefined;
      for (const call of toolCallsOf(reply.message)) await ctx.executeTool(call);
      return toolCallsOf(reply.message).length === 0 ? { reason: 'completed' } : undefined;
    });
    const failure = await firstFailure(
      orchestratorConformance(heedless, { seed: 11, capabilities: { steering: false, followUps: false } }),
    );
    expect(failure?.rule).toBe('stops_when_told');
    expect(failure?.message).toMatch(/seed 11 \(replay with \{ seed: 11 \}\)/);
    expect(failure?.message).toMatch(/Smallest failing script:\n\{/);
  });

  it('a loop that never returns after an abort: returns_after_stop', async () => {
    const deaf: Orchestrator = {
      name: 'deaf',
      async run(ctx) {
        for (;;) {
          if (ctx.aborted) await new Promise(() => {});
          const stop = ctx.nextTurn();
          if (stop !== undefined) return { reason: stop };
          const reply = await ctx.callModel();
          if (!reply.ok) return { reason: reply.reason, error: reply.error };
          for (const call of toolCallsOf(reply.message)) await ctx.executeTool(call);
          ctx.endTurn(reply.message);
          if (toolCallsOf(reply.message).length === 0) return { reason: 'completed' };
        }
      },
    };
    const cases = orchestratorConformance(deaf, {
      seed: 3,
      stopGraceMs: 5,
      capabilities: { steering: false, followUps: false },
    });
    const failure = await firstFailure(
      cases.filter((conformance) => conformance.name.startsWith('an abort')),
    );
    expect(failure?.rule).toBe('returns_after_stop');
  });

  it("the first guide's loop, which polls steering only between tool calls: steering_taken", async () => {
    const guide = loop('steers-between-tools-only', async (ctx) => {
      const stop = ctx.nextTurn();
      if (stop !== undefined) return { reason: stop };
      const reply = await ctx.callModel();
      if (!reply.ok) return { reason: reply.reason, error: reply.error };
      const calls = toolCallsOf(reply.message);
      for (const call of calls) {
        await ctx.executeTool(call);
        if (ctx.aborted) return { reason: 'aborted' };
        if (ctx.pollSteering().length > 0) break;
      }
      ctx.endTurn(reply.message);
      if (calls.length > 0) return undefined;
      if (ctx.pollFollowUp().length > 0) return undefined;
      return { reason: 'completed' };
    });
    const cases = orchestratorConformance(guide, { seed: 5 });
    const failure = await firstFailure(
      cases.filter((conformance) => conformance.name.startsWith('steering')),
    );
    expect(failure?.rule).toBe('steering_taken');
    expect(failure?.message).toMatch(/poll ctx\.pollSteering\(\) before completing/);
  });

  it('a loop that runs a tool itself: tool_outside_gate', async () => {
    const direct = loop('runs-tools-itself', async (ctx) => {
      const stop = ctx.nextTurn();
      if (stop !== undefined) return { reason: stop };
      const reply = await ctx.callModel();
      if (!reply.ok) return { reason: reply.reason, error: reply.error };
      for (const call of toolCallsOf(reply.message)) {
        const tool = (ctx.tools.find((candidate) => candidate.name === call.name) ??
          ctx.tools[0]) as unknown as {
          execute(input: unknown, context: unknown): unknown;
        };
        await tool.execute(call.input, {});
      }
      ctx.endTurn(reply.message);
      return toolCallsOf(reply.message).length === 0 ? { reason: 'completed' } : undefined;
    });
    const failure = await firstFailure(orchestratorConformance(direct, { seed: 7 }));
    expect(failure?.rule).toBe('tool_outside_gate');
  });
});
