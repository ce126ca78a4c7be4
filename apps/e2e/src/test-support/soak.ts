import type { Parameters as PropertyParameters } from 'fast-check';

/**
 * True in the long run (`pnpm test:soak` sets `AGENT_CORE_SOAK=1`): more
 * property runs and every fault point. `npm test` runs the short versions.
 */
export const soak = process.env.AGENT_CORE_SOAK === '1';

/** How many property runs: `short` in the default tests, `long` in the soak run. */
export function propertyRuns(short: number, long: number): number {
  const override = Number(process.env.AGENT_CORE_RUNS);
  if (Number.isInteger(override) && override > 0) return override;
  return soak ? long : short;
}

/**
 * fast-check's settings for a property: the run count, and the seed and path
 * from `AGENT_CORE_SEED` / `AGENT_CORE_PATH` to replay a failure (fast-check
 * prints both when a property fails).
 */
export function propertySettings<T>(short: number, long: number): PropertyParameters<T> {
  const seed = Number(process.env.AGENT_CORE_SEED);
  const path = process.env.AGENT_CORE_PATH;
  return {
    numRuns: propertyRuns(short, long),
    ...(Number.isInteger(seed) ? { seed } : {}),
    ...(path === undefined || path === '' ? {} : { path }),
    // The whole counterexample in the report, so a failure can be read without a rerun.
    verbose: 1,
  };
}
