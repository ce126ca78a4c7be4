/** One named check of a conformance kit, for any test runner: `await run()` throws when it fails. */
export interface ConformanceCase {
  readonly name: string;
  run(): Promise<void>;
}

/**
 * The test functions of the caller's framework: vitest's, jest's or
 * `node:test`'s `test` (and optionally `describe`) fit.
 */
export interface ConformanceHarness {
  test(name: string, body: () => Promise<void>): unknown;
  describe?(name: string, body: () => void): unknown;
}

/**
 * A check that failed: `rule` names what was broken (a `ContractError` rule
 * or one of the kit's own), the message says what happened, with the seed
 * and the smallest failing script of a random run.
 */
export class ConformanceFailure extends Error {
  readonly rule: string;

  constructor(rule: string, message: string) {
    super(`[${rule}] ${message}`);
    this.name = 'ConformanceFailure';
    this.rule = rule;
  }
}

/** Registers `cases` with the harness, under `title` when it has `describe`, and returns them. */
export function registerCases(
  title: string,
  cases: ConformanceCase[],
  harness: Partial<ConformanceHarness>,
): ConformanceCase[] {
  const test = harness.test;
  if (test === undefined) return cases;
  const register = () => {
    for (const conformance of cases) test(conformance.name, () => conformance.run());
  };
  if (harness.describe === undefined) register();
  else harness.describe(title, register);
  return cases;
}
