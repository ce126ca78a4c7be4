import type { Framework } from '../frameworks/framework.js';
import { comparePaired } from '../measure.js';
import { stepScenario } from '../scenario.js';

/** One cell of workloads 1 and 2: microseconds per step of a contender and of the bare loop, same process. */
export interface PerStepCell {
  steps: number;
  microsPerStep: number;
  bareMicrosPerStep: number;
  ratio: number;
  samples: number;
}

/** The step counts of workloads 1 and 2. */
export const stepCounts = [10, 100, 1000] as const;

/**
 * Workload 1 (`deltas` 0) or 2 (`deltas` 50, every event iterated): N steps
 * of one tool call and a final answer, per step, against the bare loop.
 */
export async function perStep(
  framework: Framework,
  bare: Framework,
  deltas: number,
  budgetMs: number,
): Promise<PerStepCell[]> {
  const cells: PerStepCell[] = [];
  for (const steps of stepCounts) {
    const scenario = stepScenario(steps, deltas, deltas > 0);
    const result = await comparePaired(
      () => framework.run(scenario),
      () => bare.run(scenario),
      { budgetMs, minSamples: 5, maxSamples: 200, minSampleMs: 5 },
    );
    const microsPerStep = (result.runMs * 1000) / steps;
    const bareMicrosPerStep = (result.floorMs * 1000) / steps;
    cells.push({
      steps,
      microsPerStep,
      bareMicrosPerStep,
      ratio: microsPerStep / bareMicrosPerStep,
      samples: result.samples,
    });
  }
  return cells;
}
