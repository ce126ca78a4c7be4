import { getHeapSpaceStatistics } from 'node:v8';
import { MemorySessionStore, type Session, SessionManager } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { addTool, scriptedProvider } from '../frameworks/agent-core.js';
import type { Framework } from '../frameworks/framework.js';
import { quantile } from '../measure.js';
import { promptText, type RunOutcome, type Scenario } from '../scenario.js';
import { runSessions } from './sessions.js';

/** Workload 6's large row: many sessions of one `SessionManager` in one process, and what is left once they are removed. */
export interface ManySessionsCell {
  sessions: number;
  stepsPerSession: number;
  latencyMs: [number, number];
  /** Sessions arrive over this many ms; latency is counted from `steadyAfterMs`. */
  arrivalMs: number;
  steadyAfterMs: number;
  /** Wall time of the whole pass and model calls (steps) per second. */
  wallMs: number;
  stepsPerSecond: number;
  addedP50Ms: number;
  addedP99Ms: number;
  /** Heap outside code space: before the sessions, at its peak (sampled every 20 ms, garbage included), and after they were removed and collected. */
  heapBeforeBytes: number;
  heapPeakBytes: number;
  /** After the pass and full collections, every session still open in the manager (idle). */
  heapHeldBytes: number;
  heapAfterRemoveBytes: number;
  /** The same pass with the bare loop in this process (its runs keep nothing once done). */
  bare: {
    wallMs: number;
    addedP50Ms: number;
    addedP99Ms: number;
    heapPeakBytes: number;
    heapBeforeBytes: number;
  };
}

function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('the sessions workload needs node --expose-gc');
  gc();
  gc();
}

/** Heap in use outside code space (compiled code comes and goes with the JIT). */
function dataHeapUsed(): number {
  let used = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name !== 'code_space' && space.space_name !== 'code_large_object_space')
      used += space.space_used_size;
  }
  return used;
}

/** Samples the heap every 20 ms until stopped; returns the highest figure seen. */
function heapPeak(): () => number {
  let peak = dataHeapUsed();
  const timer = setInterval(() => {
    const used = dataHeapUsed();
    if (used > peak) peak = used;
  }, 20);
  return () => {
    clearInterval(timer);
    return Math.max(peak, dataHeapUsed());
  };
}

/** Scenarios of sessions being created, by the key in their metadata: the manager's factory takes each. */
const scenarios = new Map<number, Scenario>();
let nextKey = 0;

/** A manager over one `MemorySessionStore` whose factory gives each session the scenario it was created for. */
function benchManager(): SessionManager {
  return new SessionManager({
    store: new MemorySessionStore(),
    agentOptions: ({ metadata }) => {
      const key = metadata.bench as number;
      const scenario = scenarios.get(key);
      if (scenario === undefined) throw new Error(`no scenario for bench session ${key}`);
      scenarios.delete(key);
      return {
        provider: scriptedProvider(scenario),
        model: 'scripted',
        tools: [addTool(scenario)],
        orchestrator: agentic({ toolExecution: 'sequential' }),
        limits: { maxTurns: scenario.steps + 1 },
      };
    },
  });
}

/**
 * Every run a new session of one `SessionManager`, as a server holds them:
 * created, prompted, and kept (idle) until removed.
 */
function managerFramework(manager: SessionManager, opened: Session[]): Framework {
  return {
    id: 'core-session-manager',
    label: 'agent-core sessions of one SessionManager',
    version: '',
    streams: false,
    multipleCalls: false,
    async run(scenario: Scenario): Promise<RunOutcome> {
      const key = nextKey++;
      scenarios.set(key, scenario);
      const session = await manager.create({ metadata: { bench: key } });
      opened.push(session);
      const result = await session.prompt(promptText).result();
      if (result.terminateReason !== 'completed')
        throw new Error(`session: the run ended with ${result.terminateReason}: ${result.error?.message}`);
      return { history: result.messages, text: result.text, events: 0 };
    },
  };
}

/**
 * `sessions` sessions of 20 tool steps, each a session of one `SessionManager`
 * over a `MemorySessionStore`, with a 25 to 75 ms model, arriving over
 * `sessions / 20` ms; then every session removed from the manager and the
 * heap collected, to see that it comes back to where it was. The bare loop
 * runs the same pass in this process.
 */
export async function manySessions(
  bare: Framework,
  sessions = 10_000,
  steps = 20,
): Promise<ManySessionsCell> {
  const latency: [number, number] = [25, 75];
  const arrivals = {
    spreadMs: Math.max(50, sessions / 20),
    steadyAfterMs: Math.max(150, sessions / 20 + 100),
  };
  const opened: Session[] = [];
  const manager = benchManager();
  const framework = managerFramework(manager, opened);
  const removeAll = async () => {
    for (const session of opened.splice(0)) await manager.remove(session.id);
  };
  // Warm-up, so the measured pass runs compiled code; its sessions are removed before measuring.
  await runSessions(framework, Math.min(1000, sessions / 5), steps, latency);
  await removeAll();
  await runSessions(bare, Math.min(1000, sessions / 5), steps, latency);
  collect();
  const heapBeforeBytes = dataHeapUsed();
  let stop = heapPeak();
  const timed = await runSessions(framework, sessions, steps, latency, arrivals);
  const heapPeakBytes = stop();
  // The latencies are 200,000 numbers or so: taken as figures now, so they are not on the heap measured below.
  const wallMs = timed.wallMs;
  const addedP50Ms = quantile(timed.added, 0.5);
  const addedP99Ms = quantile(timed.added, 0.99);
  timed.added.length = 0;
  timed.work.length = 0;
  collect();
  // What the idle sessions hold, kept by the manager until removed.
  const heapHeldBytes = dataHeapUsed();
  await removeAll();
  // Let timers and promise reactions of the finished runs settle, as they would in a server.
  await new Promise((resolve) => setTimeout(resolve, 10));
  collect();
  const heapAfterRemoveBytes = dataHeapUsed();
  const bareBefore = dataHeapUsed();
  stop = heapPeak();
  const bareTimed = await runSessions(bare, sessions, steps, latency, arrivals);
  const bareHeapPeak = stop();
  const calls = sessions * (steps + 1);
  return {
    sessions,
    stepsPerSession: steps,
    latencyMs: latency,
    arrivalMs: arrivals.spreadMs,
    steadyAfterMs: arrivals.steadyAfterMs,
    wallMs,
    stepsPerSecond: calls / (wallMs / 1000),
    addedP50Ms,
    addedP99Ms,
    heapBeforeBytes,
    heapPeakBytes,
    heapHeldBytes,
    heapAfterRemoveBytes,
    bare: {
      wallMs: bareTimed.wallMs,
      addedP50Ms: quantile(bareTimed.added, 0.5),
      addedP99Ms: quantile(bareTimed.added, 0.99),
      heapPeakBytes: bareHeapPeak,
      heapBeforeBytes: bareBefore,
    },
  };
}
