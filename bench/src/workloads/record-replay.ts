import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cassette, sessionCassette } from '@agent-core/cassette';
import {
  Agent,
  MemorySessionStore,
  type Provider,
  SessionManager,
  type SessionStore,
} from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { FileSessionStore } from '@agent-core/store-file';
import { addTool, scriptedProvider } from '../frameworks/agent-core.js';
import { median, time } from '../measure.js';
import type { RecordingCell, RecordReplayResult, ReplayCell } from '../results.js';
import { promptText, type Scenario } from '../scenario.js';

// Workload 12: what recording costs per step, and how long replaying a 1,000-step session takes.

const scenarioOf = (steps: number): Scenario => ({
  steps,
  deltas: 0,
  callsPerStep: 1,
  toolDelayMs: 0,
  iterate: false,
});

/** One run of the agentic sequential agent on `provider`, checked to complete. */
async function runOn(provider: Provider, scenario: Scenario): Promise<void> {
  const agent = new Agent({
    provider,
    model: 'scripted',
    tools: [addTool(scenario)],
    orchestrator: agentic({ toolExecution: 'sequential' }),
    limits: { maxTurns: scenario.steps + 1 },
  });
  const result = await agent.prompt(promptText).result();
  if (result.terminateReason !== 'completed')
    throw new Error(`the run ended with ${result.terminateReason}: ${result.error?.message}`);
}

/** CPU time of `body` in ms (user and system, every thread of the process: the collector's too). */
async function cpuTime(body: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  await body();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/**
 * Recording per step: the plain run against the same run through a recording
 * cassette (a new one per run), kept in memory or written to a file after
 * every reply. Measured in CPU time, which the other jobs of a shared machine
 * move far less than wall time: the three run in turn, a batch each, for
 * `rounds` rounds; medians per run, the difference divided by N.
 */
async function recordingCells(folder: string, rounds: number): Promise<RecordingCell[]> {
  const cells: RecordingCell[] = [];
  let files = 0;
  for (const steps of [10, 100, 1000]) {
    const scenario = scenarioOf(steps);
    const contenders = [
      () => runOn(scriptedProvider(scenario), scenario),
      async () =>
        runOn(
          await cassette({ cassette: { entries: [] }, provider: scriptedProvider(scenario), mode: 'record' }),
          scenario,
        ),
      async () =>
        runOn(
          await cassette({
            file: join(folder, `recording-${files++ % 4}.json`),
            provider: scriptedProvider(scenario),
            mode: 'record',
          }),
          scenario,
        ),
    ];
    const batch = Math.max(1, Math.round(2000 / steps));
    const perRun: number[][] = contenders.map(() => []);
    for (let round = 0; round < rounds + 1; round++) {
      for (const [index, contender] of contenders.entries()) {
        const ms = await cpuTime(async () => {
          for (let run = 0; run < batch; run++) await contender();
        });
        // The first round warms the code up and is not counted.
        if (round > 0) perRun[index]?.push(ms / batch);
      }
    }
    const [plain, memory, file] = perRun.map(median) as [number, number, number];
    cells.push({
      steps,
      plainUsPerStep: (plain * 1000) / steps,
      memoryUsPerStep: ((memory - plain) * 1000) / steps,
      fileUsPerStep: ((file - plain) * 1000) / steps,
      samples: rounds,
    });
  }
  return cells;
}

/** A stored session of `steps` tool steps, made by a `SessionManager` run. */
async function storedSession(store: SessionStore, steps: number): Promise<string> {
  const scenario = scenarioOf(steps);
  const manager = new SessionManager({
    store,
    agentOptions: () => ({
      provider: scriptedProvider(scenario),
      model: 'scripted',
      tools: [addTool(scenario)],
      orchestrator: agentic({ toolExecution: 'sequential' }),
      limits: { maxTurns: steps + 1 },
    }),
  });
  const session = await manager.create();
  const result = await session.prompt(promptText).result();
  if (result.terminateReason !== 'completed')
    throw new Error(`the session run ended with ${result.terminateReason}`);
  manager.close(session.id);
  return session.id;
}

/**
 * Replaying a 1,000-step session: reading it as a cassette, loading the
 * cassette (its index), and the agent's run on it with the tool run for real;
 * medians of `rounds` fresh replays. The plain run is the same agent on the
 * scripted model, for scale.
 */
async function replayCells(folder: string, rounds: number): Promise<ReplayCell[]> {
  const steps = 1000;
  const scenario = scenarioOf(steps);
  const cells: ReplayCell[] = [];
  const plainRuns: number[] = [];
  for (let round = 0; round < rounds; round++)
    plainRuns.push(await time(() => runOn(scriptedProvider(scenario), scenario)));
  const plainRunMs = median(plainRuns);

  const sources: { source: string; read: () => Promise<Parameters<typeof cassette>[0]> }[] = [];
  for (const [label, store] of [
    ['stored session, MemorySessionStore', new MemorySessionStore()],
    ['stored session, FileSessionStore', new FileSessionStore({ root: join(folder, 'sessions') })],
  ] as const) {
    const id = await storedSession(store, steps);
    sources.push({
      source: label,
      read: async () => ({ cassette: (await sessionCassette(store, id)).cassette }),
    });
  }
  // The same 1,000 steps recorded into a cassette file.
  const file = join(folder, 'thousand.json');
  await runOn(await cassette({ file, provider: scriptedProvider(scenario), mode: 'record' }), scenario);
  sources.push({ source: 'cassette file', read: async () => ({ file }) });

  for (const { source, read } of sources) {
    const reads: number[] = [];
    const loads: number[] = [];
    const runs: number[] = [];
    const cpu: number[] = [];
    for (let round = 0; round < rounds; round++) {
      let options: Parameters<typeof cassette>[0] | undefined;
      let player: Awaited<ReturnType<typeof cassette>> | undefined;
      cpu.push(
        await cpuTime(async () => {
          reads.push(await time(async () => (options = await read())));
          loads.push(
            await time(async () => (player = await cassette(options as Parameters<typeof cassette>[0]))),
          );
          runs.push(await time(() => runOn(player as Provider, scenario)));
        }),
      );
      if (player?.misses.length !== 0 || player.unusedEntries().length !== 0)
        throw new Error(`${source}: the replay missed or left entries unused`);
    }
    const [readMs, loadMs, runMs] = [median(reads), median(loads), median(runs)];
    cells.push({
      source,
      steps,
      readMs,
      loadMs,
      runMs,
      totalMs: readMs + loadMs + runMs,
      cpuMs: median(cpu),
      plainRunMs,
    });
  }
  return cells;
}

/** Workload 12 whole. */
export async function measureRecordReplay(options: { rounds?: number } = {}): Promise<RecordReplayResult> {
  const folder = mkdtempSync(join(tmpdir(), 'agent-core-bench-cassettes-'));
  try {
    const recording = await recordingCells(folder, options.rounds ?? 7);
    const replay = await replayCells(folder, options.rounds ?? 7);
    return { recording, replay };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
