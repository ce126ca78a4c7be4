import { allFrameworks } from './frameworks/all-frameworks.js';
import { bareFramework } from './frameworks/bare.js';
import type { Framework } from './frameworks/framework.js';
import type { Scenario } from './scenario.js';

/** The contender of that id, or the bare loop for `bare`; throws for an unknown id. */
export async function contenderById(id: string): Promise<Framework> {
  const framework =
    id === 'bare' ? bareFramework() : (await allFrameworks()).find((candidate) => candidate.id === id);
  if (framework === undefined) throw new Error(`unknown contender '${id}'`);
  return framework;
}

/**
 * A run whose model answers at once for `steps` steps and, when `blocked`, never after:
 * it then waits in its model call for as long as the process lives.
 */
export function waitingScenario(steps: number, blocked: boolean): Scenario {
  return {
    steps: steps + 10,
    deltas: 0,
    callsPerStep: 1,
    toolDelayMs: 0,
    iterate: false,
    modelLatency: (call) => (blocked && call >= steps ? 1e9 : 0),
  };
}

/** The `gc` function `node --expose-gc` gives; throws without it. */
export function fullCollection(): () => void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('run with node --expose-gc');
  return collect;
}
