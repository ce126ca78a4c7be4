/**
 * True in the long run (`pnpm test:soak` sets `AGENT_CORE_SOAK=1`): more
 * property runs and every fault point. `npm test` runs the short versions.
 */
export const soak = process.env.AGENT_CORE_SOAK === '1';

/** How many property runs: `short` in the default tests, `long` in the soak run; `AGENT_CORE_RUNS` overrides both. */
export function propertyRuns(short: number, long: number): number {
  const override = Number(process.env.AGENT_CORE_RUNS);
  if (Number.isInteger(override) && override > 0) return override;
  return soak ? long : short;
}

/** fast-check's settings of a property: how many runs, and the seed and path that replay a failure. */
export interface PropertySettings {
  numRuns: number;
  seed?: number;
  path?: string;
}

/**
 * fast-check's settings for a property: the run count, and the seed and path
 * from `AGENT_CORE_SEED` / `AGENT_CORE_PATH` to replay a failure. A failing
 * property prints its seed, its path and the shrunk counterexample.
 */
export function propertySettings(short: number, long: number): PropertySettings {
  const seed = Number(process.env.AGENT_CORE_SEED);
  const path = process.env.AGENT_CORE_PATH;
  return {
    numRuns: propertyRuns(short, long),
    ...(Number.isInteger(seed) ? { seed } : {}),
    ...(path === undefined || path === '' ? {} : { path }),
  };
}

/** A property test's time limit: generous, since a run that hangs fails on its own limit first. */
export const propertyTimeoutMs = soak ? 60 * 60_000 : 120_000;

/** Prints a test's figures in the soak run (or with `AGENT_CORE_REPORT=1`), for RELIABILITY.md. */
export function report(title: string, body: string): void {
  if (soak || process.env.AGENT_CORE_REPORT === '1') console.log(`${title}\n${body}`);
}
