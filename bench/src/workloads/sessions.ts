import type { Framework } from '../frameworks/framework.js';
import { quantile } from '../measure.js';
import type { Scenario } from '../scenario.js';

/** Workload 6: many concurrent sessions on one process. */
export interface SessionsCell {
  sessions: number;
  stepsPerSession: number;
  /** Model latency: uniform in [min, max] ms, fixed per session and call. */
  latencyMs: [number, number];
  /** Model calls (steps) per second of wall time with that latency. */
  stepsPerSecond: number;
  /**
   * Time from when a reply was due (request time + latency) to the next model
   * request of the same session, ms: the loop's work plus queueing behind the
   * other sessions and timer granularity. Steady state: replies due 150 ms or
   * more after the first session started.
   */
  addedP50Ms: number;
  addedP99Ms: number;
  /** Time from when the reply actually arrived (its timer ran) to the next request: the loop's own work per step. */
  workP50Ms: number;
  workP99Ms: number;
  /** Steps per second with no model latency at all: the CPU-bound ceiling. */
  cpuBoundStepsPerSecond: number;
}

/** A fixed pseudo-random latency per session and call, so every contender gets the same schedule. */
function latencyOf(session: number, call: number, min: number, max: number): number {
  let hash = (session * 2654435761 + call * 40503) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 16), 2246822507) >>> 0;
  hash = Math.imul(hash ^ (hash >>> 13), 3266489909) >>> 0;
  return min + (((hash ^ (hash >>> 16)) >>> 0) % (max - min + 1));
}

/** Sessions arrive over the first 50 ms and their first replies are due by 125 ms; the steady state starts after. */
const steadyAfterMs = 150;

/** How sessions arrive and when the steady state starts; workload 6 spreads arrivals over 50 ms and counts from 150 ms. */
export interface Arrivals {
  spreadMs: number;
  steadyAfterMs: number;
}

export async function runSessions(
  framework: Framework,
  sessions: number,
  steps: number,
  latency: [number, number] | undefined,
  arrivals: Arrivals = { spreadMs: 50, steadyAfterMs },
): Promise<{ wallMs: number; added: number[]; work: number[] }> {
  const added: number[] = [];
  const work: number[] = [];
  const start = performance.now();
  // Each session is its own agent, as SessionManager would hold it: swap this map for manager.create(...).prompt(...).
  await Promise.all(
    Array.from({ length: sessions }, async (_, session) => {
      // Sessions arrive spread over the first 50 ms, not in one synchronous burst.
      if (latency !== undefined)
        await new Promise((resolve) => setTimeout(resolve, session % arrivals.spreadMs));
      let lastDue: number | undefined;
      let lastArrival: number | undefined;
      const scenario: Scenario = { steps, deltas: 0, callsPerStep: 1, toolDelayMs: 0, iterate: false };
      if (latency !== undefined) {
        scenario.modelLatency = (call) => latencyOf(session, call, latency[0], latency[1]);
        scenario.onModelCall = (requested, due, arrived) => {
          // Steady state only: replies due while sessions are still arriving are left out.
          if (
            lastDue !== undefined &&
            lastArrival !== undefined &&
            lastDue - start >= arrivals.steadyAfterMs
          ) {
            added.push(requested - lastDue);
            work.push(requested - lastArrival);
          }
          lastDue = due;
          lastArrival = arrived;
        };
      }
      return framework.run(scenario);
    }),
  );
  return { wallMs: performance.now() - start, added, work };
}

/** 1,000 sessions of 10 tool steps and a final answer each, with and without model latency. */
export async function concurrentSessions(
  framework: Framework,
  sessions = 1000,
  steps = 20,
  latency: [number, number] = [25, 75],
): Promise<SessionsCell> {
  // Warm-up, with and without latency, so the measured passes run compiled code.
  await runSessions(framework, 50, steps, undefined);
  await runSessions(framework, sessions / 5, steps, latency);
  const cpu = await runSessions(framework, sessions, steps, undefined);
  const timed = await runSessions(framework, sessions, steps, latency);
  const calls = sessions * (steps + 1);
  return {
    sessions,
    stepsPerSession: steps,
    latencyMs: latency,
    stepsPerSecond: calls / (timed.wallMs / 1000),
    addedP50Ms: quantile(timed.added, 0.5),
    addedP99Ms: quantile(timed.added, 0.99),
    workP50Ms: quantile(timed.work, 0.5),
    workP99Ms: quantile(timed.work, 0.99),
    cpuBoundStepsPerSecond: calls / (cpu.wallMs / 1000),
  };
}
