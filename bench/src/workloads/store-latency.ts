import type { Framework } from '../frameworks/framework.js';
import { quantile } from '../measure.js';
import { runSessions } from './sessions.js';

/** One session store's added latency per step, alone and with 1,000 sessions at once. */
export interface StoreLatencyCell {
  id: string;
  label: string;
  /** One session of `steps` tool steps, model latency 25 to 75 ms. */
  one: LatencyFigures;
  /** 1,000 sessions of `steps` tool steps each, arriving over 1 s, model latency 0.5 to 1.5 s. */
  thousand: LatencyFigures;
}

/** Added latency per step (reply due to next model request), steady state only, and the steps per second. */
export interface LatencyFigures {
  sessions: number;
  steps: number;
  latencyMs: [number, number];
  stepsPerSecond: number;
  addedP50Ms: number;
  addedP99Ms: number;
  samples: number;
}

async function figures(
  framework: Framework,
  sessions: number,
  steps: number,
  latency: [number, number],
  arrivals: { spreadMs: number; steadyAfterMs: number },
): Promise<LatencyFigures> {
  const run = await runSessions(framework, sessions, steps, latency, arrivals);
  return {
    sessions,
    steps,
    latencyMs: latency,
    stepsPerSecond: (sessions * (steps + 1)) / (run.wallMs / 1000),
    addedP50Ms: quantile(run.added, 0.5),
    addedP99Ms: quantile(run.added, 0.99),
    samples: run.added.length,
  };
}

/**
 * What a session store adds to each step, as a user of it sees it: one
 * session of 200 steps with workload 6's model latency (the store's own
 * cost per step, its commits included), and 1,000 sessions at once with the
 * latency of a fast real model (0.5 to 1.5 s per call), so the load is what
 * 1,000 live conversations make rather than workload 6's 20,000 steps a
 * second. Counted from 3 s, once every session has arrived and started.
 */
export async function storeLatency(framework: Framework): Promise<StoreLatencyCell> {
  // Warm-up: compiled code, pools and prepared tables before anything is counted.
  await runSessions(framework, 20, 10, undefined);
  const one = await figures(framework, 1, 200, [25, 75], { spreadMs: 1, steadyAfterMs: 150 });
  const thousand = await figures(framework, 1000, 10, [500, 1500], { spreadMs: 1000, steadyAfterMs: 3000 });
  return { id: framework.id, label: framework.label, one, thousand };
}
