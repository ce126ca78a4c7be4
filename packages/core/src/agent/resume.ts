import type { RunContext } from '../loop/run-context.js';
import type { Orchestrator, OrchestratorContext, RunEnd } from '../orchestrator/orchestrator.js';

/** Options of `agent.resume()`. */
export interface ResumeOptions {
  /** Aborts the resumed run; it ends with `aborted`. */
  signal?: AbortSignal;
}

/**
 * Wraps an orchestrator for a run with no new prompt: its first step runs the
 * calls at the end of the history that have no result (each through
 * `executeTool`, so they are logged, checked and answered like any call),
 * then the orchestrator takes over. A history that ends with the model's
 * answer has nothing to continue: the run completes without a model call.
 */
export function resumeFirst(orchestrator: Orchestrator): Orchestrator {
  return {
    name: orchestrator.name,
    async run(ctx: OrchestratorContext): Promise<RunEnd> {
      const state = (ctx as RunContext).state;
      const calls = [...state.pending.values()];
      if (calls.length === 0) {
        const last = ctx.messages.at(-1) as { role?: string } | undefined;
        if (last?.role === 'assistant') return { reason: 'completed' };
      } else if (ctx.settings.toolExecution === 'parallel') {
        await ctx.executeTools(calls);
      } else {
        for (const call of calls) {
          if (!state.pending.has(call.id)) continue;
          await ctx.executeTool(call);
        }
      }
      if (state.stopCause !== undefined) return { reason: state.stopCause };
      return orchestrator.run(ctx);
    },
  };
}
