// Sessions through SessionManager: the 1,000-session workload with the memory and the file store beside a bare
// Agent, saves per second of the file store, and bytes written over a 1,000-step session. `pnpm bench:sessions`.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemorySessionStore, type Provider, SessionManager, type SessionStore } from '@agent-core/core';
import { sampleSessionState } from '@agent-core/core/testing';
import { agentic } from '@agent-core/orchestrator-agentic';
import { FileSessionStore } from '@agent-core/store-file';
import { addTool, coreFramework, scriptedProvider } from './frameworks/agent-core.js';
import type { Framework } from './frameworks/framework.js';
import { promptText, type RunOutcome, type Scenario } from './scenario.js';
import { concurrentSessions, type SessionsCell } from './workloads/sessions.js';

function managerFramework(id: string, label: string, store: () => SessionStore): Framework {
  return {
    id,
    label,
    version: 'SessionManager',
    streams: true,
    multipleCalls: true,
    async run(scenario: Scenario): Promise<RunOutcome> {
      // One manager per run, as one process would hold many: the session is created, then prompted.
      const manager = new SessionManager({
        store: store(),
        agent: () => ({
          provider: scriptedProvider(scenario),
          model: 'scripted',
          tools: [addTool(scenario)],
          orchestrator: agentic({ toolExecution: 'sequential' }),
          limits: { maxTurns: scenario.steps + 1 },
        }),
      });
      const session = await manager.create();
      const result = await session.prompt(promptText).result();
      if (result.terminateReason !== 'completed')
        throw new Error(`${id}: ${result.terminateReason} ${result.error?.message}`);
      return { history: result.messages, text: result.text, events: 0 };
    },
  };
}

const root = await mkdtemp(join(tmpdir(), 'bench-sessions-'));
const memory = new MemorySessionStore();
const file = new FileSessionStore({ root: join(root, 'workload') });
const sessions = Number(process.env.SESSIONS ?? 1000);
const rows: [string, SessionsCell][] = [];
const bare = coreFramework({
  id: 'core-seq',
  label: 'agent-core agentic sequential',
  orchestrator: () => agentic({ toolExecution: 'sequential' }),
  provider: 'scripted',
});
for (const framework of [
  bare,
  managerFramework('manager-memory', 'SessionManager, MemorySessionStore', () => memory),
  managerFramework('manager-file', 'SessionManager, FileSessionStore', () => file),
]) {
  process.stderr.write(`${framework.label}...\n`);
  rows.push([framework.label, await concurrentSessions(framework, sessions)]);
}

// Saves per second: one session of 20 messages saved again and again (temp file, fsync, rename, fsync folder).
const saves = new FileSessionStore({ root: join(root, 'saves') });
const state = sampleSessionState('saves');
state.version = (await saves.save(state, { expectedVersion: 0 })).version;
const saveCount = 300;
const saveStart = performance.now();
for (let index = 0; index < saveCount; index++) {
  state.version = (await saves.save(state, { expectedVersion: state.version })).version;
}
const savesPerSecond = saveCount / ((performance.now() - saveStart) / 1000);
const snapshotBytes = Buffer.byteLength(JSON.stringify(state));

// Bytes written over a 1,000-step session: 100 prompts of 10 tool steps each, through the file store.
const bytesStore = new FileSessionStore({ root: join(root, 'bytes') });
const scenario: Scenario = { steps: 10, deltas: 0, callsPerStep: 1, toolDelayMs: 0, iterate: false };
// A fresh scripted model per prompt replays the 10 steps; the history keeps growing.
let current = scriptedProvider(scenario);
const replay: Provider = { name: 'scripted', stream: (request, options) => current.stream(request, options) };
const manager = new SessionManager({
  store: bytesStore,
  agent: () => ({
    provider: replay,
    model: 'scripted',
    tools: [addTool(scenario)],
    orchestrator: agentic(),
    limits: { maxTurns: 11 },
  }),
});
const long = await manager.create({ id: 'long' });
for (let prompt = 0; prompt < 100; prompt++) {
  current = scriptedProvider(scenario);
  await long.prompt(promptText).result();
}
const historyBytes = Buffer.byteLength(JSON.stringify(long.messages));
const steps = long.messages.filter((message) => message.role === 'assistant').length;
await rm(root, { recursive: true, force: true });

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const lines = [
  `| contender | steps/s | added p50 | added p99 | own work p50 / p99 | CPU-bound steps/s |`,
  `| --- | --- | --- | --- | --- | --- |`,
  ...rows.map(
    ([label, cell]) =>
      `| ${label} | ${number(cell.stepsPerSecond)} | ${number(cell.addedP50Ms, 2)} ms | ${number(cell.addedP99Ms, 2)} ms | ${number(cell.workP50Ms, 3)} / ${number(cell.workP99Ms, 3)} ms | ${number(cell.cpuBoundStepsPerSecond)} |`,
  ),
  '',
  `FileSessionStore saves: ${number(savesPerSecond)} per second (a ${number(snapshotBytes / 1024, 1)} KB session).`,
  '',
  `Bytes written over a ${number(steps)}-step session (100 prompts of 10 tool steps): ${number(bytesStore.bytesWritten / 1024)} KB for a final history of ${number(historyBytes / 1024)} KB of JSON: ${number(bytesStore.bytesWritten / historyBytes, 2)}×.`,
];
process.stdout.write(`${lines.join('\n')}\n`);
