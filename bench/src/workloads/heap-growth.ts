import { getHeapSpaceStatistics } from 'node:v8';
import type { Framework } from '../frameworks/framework.js';
import { median, time } from '../measure.js';
import { type RunOutcome, stepScenario } from '../scenario.js';

/** Workload 3: what 1,000 steps leave on the heap, against the JSON size of the history. */
export interface HeapCell {
  steps: number;
  /** Heap growth per run in bytes, after full collections, with the agent and its result still held (10 runs kept, divided by 10). */
  growthBytes: number;
  /** `JSON.stringify` length of the framework's own history. */
  historyJsonBytes: number;
  /** growth / JSON size. */
  ratio: number;
  /** Runs kept alive together for one measurement (1 for a contender whose run takes seconds). */
  keptRuns: number;
  /** The same for the bare loop, in the same process. */
  bareGrowthBytes: number;
  bareHistoryJsonBytes: number;
}

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('heap growth needs node --expose-gc');
  gc();
  gc();
}

/** Heap in use outside code space: compiled code comes and goes with the JIT and is not the program's data. */
function dataHeapUsed(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name !== 'code_space' && space.space_name !== 'code_large_object_space') {
      used += space.space_used_size;
    }
  }
  return used;
}

async function growthOf(
  framework: Framework,
  steps: number,
  keptRuns: number,
): Promise<{ growth: number; json: number }> {
  const scenario = stepScenario(steps, 0, false);
  collect();
  const before = dataHeapUsed();
  const outcomes: RunOutcome[] = [];
  for (let index = 0; index < keptRuns; index++) outcomes.push(await framework.run(scenario));
  // Let timers and promise reactions of the finished runs settle, as they would in an app.
  await new Promise((resolve) => setTimeout(resolve, 1));
  collect();
  const after = dataHeapUsed();
  // Read the outcomes after measuring, so they are alive while the heap is measured.
  const json = JSON.stringify(outcomes[0]?.history).length;
  return { growth: (after - before) / outcomes.length, json };
}

/** Median of three measurements each (one for a slow contender), after one warm-up run. */
export async function heapGrowth(framework: Framework, bare: Framework, steps = 1000): Promise<HeapCell> {
  const warmMs = await time(() => framework.run(stepScenario(steps, 0, false)));
  await bare.run(stepScenario(steps, 0, false));
  // Up to 10 runs kept alive at once per measurement (growth divided by the count, so is GC noise);
  // a contender whose run takes seconds keeps one, measured once.
  const keptRuns = Math.max(1, Math.min(10, Math.floor(2000 / warmMs)));
  const rounds = keptRuns > 1 ? 3 : 1;
  const growths: number[] = [];
  const bareGrowths: number[] = [];
  let json = 0;
  let bareJson = 0;
  for (let index = 0; index < rounds; index++) {
    const measured = await growthOf(framework, steps, keptRuns);
    growths.push(measured.growth);
    json = measured.json;
    const floor = await growthOf(bare, steps, 10);
    bareGrowths.push(floor.growth);
    bareJson = floor.json;
  }
  const growthBytes = median(growths);
  return {
    steps,
    growthBytes,
    historyJsonBytes: json,
    ratio: growthBytes / json,
    keptRuns,
    bareGrowthBytes: median(bareGrowths),
    bareHistoryJsonBytes: bareJson,
  };
}
