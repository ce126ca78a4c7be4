import type { Framework } from '../frameworks/framework.js';
import { median, time } from '../measure.js';
import type { Scenario } from '../scenario.js';

/** Workload 4: one turn with 8 tool calls that each wait 50 ms. */
export interface ParallelCell {
  calls: number;
  toolDelayMs: number;
  /** Median total time of the run, ms. */
  totalMs: number;
  /** The bare loop (Promise.all), same process. */
  bareTotalMs: number;
}

/** Runs the scenario five times after a warm-up, alternating with the bare loop. */
export async function parallelTools(
  framework: Framework,
  bare: Framework,
): Promise<ParallelCell | undefined> {
  if (!framework.multipleCalls) return undefined;
  const scenario: Scenario = { steps: 1, deltas: 0, callsPerStep: 8, toolDelayMs: 50, iterate: false };
  await framework.run(scenario);
  await bare.run(scenario);
  const totals: number[] = [];
  const bareTotals: number[] = [];
  for (let index = 0; index < 5; index++) {
    totals.push(await time(() => framework.run(scenario)));
    bareTotals.push(await time(() => bare.run(scenario)));
  }
  return { calls: 8, toolDelayMs: 50, totalMs: median(totals), bareTotalMs: median(bareTotals) };
}
