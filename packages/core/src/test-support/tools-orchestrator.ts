import type { Orchestrator, OrchestratorContext, RunSettings } from '../index.js';
import { stepOrchestrator } from '../testing/step-orchestrator.js';

/** `stepOrchestrator` running each response's calls in parallel, whatever the agent's `toolExecution`, for core's tests. */
export const toolsOrchestrator: Orchestrator = {
  name: 'parallel-steps',
  run(ctx) {
    const settings: RunSettings = { ...ctx.settings, toolExecution: 'parallel' };
    return stepOrchestrator.run(
      new Proxy(ctx, {
        get(target, key) {
          if (key === 'settings') return settings;
          const value = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }) as OrchestratorContext,
    );
  },
};
