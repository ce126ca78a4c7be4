import { type ConformanceCase, ConformanceFailure } from '../testing/conformance-case.js';

/** Runs a kit's cases in turn: the first `ConformanceFailure`, or undefined when every case passes. */
export async function firstFailure(cases: ConformanceCase[]): Promise<ConformanceFailure | undefined> {
  for (const conformance of cases) {
    try {
      await conformance.run();
    } catch (error) {
      if (error instanceof ConformanceFailure) return error;
      throw error;
    }
  }
  return undefined;
}
