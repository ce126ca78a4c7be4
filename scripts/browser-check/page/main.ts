// The page's entry: describes the runtime, runs every scenario in turn and publishes the results
// on `window.agentCoreCheck`, which the check reads once `finished` is true.
import { scenarios } from './scenarios.js';

export interface ScenarioResult {
  name: string;
  ok: boolean;
  details: string;
  durationMs: number;
}

export interface PageReport {
  isSecureContext: boolean;
  randomUUID: string;
  nodeGlobals: string[];
  /** Every scenario's name, known before any runs, so one that never finishes is named. */
  scenarios: string[];
  results: ScenarioResult[];
  finished: boolean;
}

const report: PageReport = {
  isSecureContext: window.isSecureContext,
  randomUUID: typeof globalThis.crypto?.randomUUID,
  nodeGlobals: ['process', 'Buffer', 'global', 'require'].filter((name) => name in globalThis),
  scenarios: Object.keys(scenarios),
  results: [],
  finished: false,
};
(window as unknown as { agentCoreCheck: PageReport }).agentCoreCheck = report;

for (const [name, scenario] of Object.entries(scenarios)) {
  const started = performance.now();
  try {
    const details = await scenario();
    report.results.push({ name, ok: true, details, durationMs: performance.now() - started });
  } catch (error) {
    const details = error instanceof Error ? (error.stack ?? error.message) : String(error);
    report.results.push({ name, ok: false, details, durationMs: performance.now() - started });
  }
}
report.finished = true;
