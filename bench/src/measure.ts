/** The median of a list of numbers (NaN for an empty list). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** The value at quantile `q` (0..1) of a list, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[index] as number;
}

/** How long `body` takes, in milliseconds. */
export async function time(body: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await body();
  return performance.now() - start;
}

/** Options of `comparePaired`. */
export interface PairedOptions {
  /** Stop sampling once the contender has used this much time (ms)... */
  budgetMs: number;
  /** ...and has at least this many samples. */
  minSamples: number;
  maxSamples: number;
  /** Each sample repeats the run until it lasts at least this long (ms), to stay above timer noise. */
  minSampleMs: number;
}

/** Medians of a contender and the floor, sampled alternately in the same process. */
export interface PairedResult {
  /** Median milliseconds of one run of the contender. */
  runMs: number;
  /** Median milliseconds of one run of the floor. */
  floorMs: number;
  samples: number;
}

/**
 * Measures `contender` against `floor` by alternating samples, so that a
 * noisy neighbour or a GC pause hits both alike. Both are warmed up first.
 * A sample repeats a run enough times to last `minSampleMs`.
 */
export async function comparePaired(
  contender: () => Promise<unknown>,
  floor: () => Promise<unknown>,
  options: PairedOptions,
): Promise<PairedResult> {
  // Warm-up: once each, then until both have run for a little while.
  const firstContender = await time(contender);
  const firstFloor = await time(floor);
  if (firstContender > options.budgetMs * 2) {
    // Far slower than the budget (already warmed by the smaller sizes): its first run is its one sample.
    const floorSamples: number[] = [firstFloor];
    for (let index = 0; index < 4; index++) floorSamples.push(await time(floor));
    return { runMs: firstContender, floorMs: median(floorSamples), samples: 1 };
  }
  const repeatsFor = (ms: number) => Math.max(1, Math.ceil(options.minSampleMs / Math.max(ms, 0.001)));
  let contenderRepeats = repeatsFor(firstContender);
  let floorRepeats = repeatsFor(firstFloor);
  if (firstContender < options.budgetMs / 4) {
    // Warm both for a quarter of the budget each, alternately: one sample's worth left a framework
    // with much more code than the bare loop still being optimised by the JIT during the samples.
    let warmed = 0;
    let warmedFloor = 0;
    let rounds = 0;
    do {
      const warm = await time(async () => {
        for (let index = 0; index < contenderRepeats; index++) await contender();
      });
      contenderRepeats = repeatsFor(warm / contenderRepeats);
      warmed += warm;
      const warmFloor = await time(async () => {
        for (let index = 0; index < floorRepeats; index++) await floor();
      });
      floorRepeats = repeatsFor(warmFloor / floorRepeats);
      warmedFloor += warmFloor;
    } while (
      ++rounds < 10_000 &&
      (warmed < options.budgetMs / 4 || warmedFloor < Math.min(options.budgetMs / 4, warmed))
    );
  } else {
    const warmFloor = await time(async () => {
      for (let index = 0; index < floorRepeats; index++) await floor();
    });
    floorRepeats = repeatsFor(warmFloor / floorRepeats);
  }

  const contenderSamples: number[] = [];
  const floorSamples: number[] = [];
  let spent = 0;
  while (
    contenderSamples.length < options.maxSamples &&
    (spent < options.budgetMs || contenderSamples.length < options.minSamples)
  ) {
    const contenderMs = await time(async () => {
      for (let index = 0; index < contenderRepeats; index++) await contender();
    });
    contenderSamples.push(contenderMs / contenderRepeats);
    spent += contenderMs;
    const floorMs = await time(async () => {
      for (let index = 0; index < floorRepeats; index++) await floor();
    });
    floorSamples.push(floorMs / floorRepeats);
    // A contender slower than the whole budget gets one sample: enough to show the order of magnitude.
    if (contenderMs > options.budgetMs * 2) break;
  }
  return { runMs: median(contenderSamples), floorMs: median(floorSamples), samples: contenderSamples.length };
}
