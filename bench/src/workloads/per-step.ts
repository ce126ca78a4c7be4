import type { Framework } from '../frameworks/framework.js';
import { comparePaired } from '../measure.js';
import { stepScenario } from '../scenario.js';

/** One cell of workloads 1 and 2: microseconds per step of a contender and of the bare loop, same process. */
export interface PerStepCell {
  steps: number;
  /** The median pass's figures (see `passRatios`): one pass when there is one. */
  microsPerStep: number;
  bareMicrosPerStep: number;
  ratio: number;
  samples: number;
  /** The ratio of each pass over the step counts, in order; absent in results from before passes. */
  passRatios?: number[];
}

/** The step counts of workloads 1 and 2. */
export const stepCounts = [10, 100, 1000] as const;

/**
 * Workload 1 (`deltas` 0) or 2 (`deltas` 50, every event iterated): N steps
 * of one tool call and a final answer, per step, against the bare loop.
 * With `passes` > 1 every step count is measured again in each pass (10,
 * 100, 1,000, then again), and each cell reports its median pass with every
 * pass's ratio, so a ratio that moves from one pass to the next shows its range.
 */
export async function perStep(
  framework: Framework,
  bare: Framework,
  deltas: number,
  budgetMs: number,
  passes = 1,
): Promise<PerStepCell[]> {
  const measured: PerStepCell[][] = stepCounts.map(() => []);
  for (let pass = 0; pass < passes; pass++) {
    for (const [index, steps] of stepCounts.entries()) {
      const scenario = stepScenario(steps, deltas, deltas > 0);
      const result = await comparePaired(
        () => framework.run(scenario),
        () => bare.run(scenario),
        { budgetMs, minSamples: 5, maxSamples: 200, minSampleMs: 5 },
      );
      const microsPerStep = (result.runMs * 1000) / steps;
      const bareMicrosPerStep = (result.floorMs * 1000) / steps;
      measured[index]?.push({
        steps,
        microsPerStep,
        bareMicrosPerStep,
        ratio: microsPerStep / bareMicrosPerStep,
        samples: result.samples,
      });
    }
  }
  return measured.map((cells) => {
    const byRatio = [...cells].sort((left, right) => left.ratio - right.ratio);
    const middle = byRatio[(byRatio.length - 1) >> 1] as PerStepCell;
    const cell: PerStepCell = {
      ...middle,
      samples: cells.reduce((sum, entry) => sum + entry.samples, 0),
    };
    if (cells.length > 1) cell.passRatios = cells.map((entry) => entry.ratio);
    return cell;
  });
}
