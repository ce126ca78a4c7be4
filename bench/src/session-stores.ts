// The file store on its own: saves per second, and bytes written over a 1,100-step session.
// `pnpm bench:sessions`. (The session rows of the workloads, memory and file store, are
// contenders of `pnpm bench`: src/frameworks/agent-core-features.ts.)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Provider, SessionManager } from '@agent-core/core';
import { sampleSessionState } from '@agent-core/core/testing';
import { agentic } from '@agent-core/orchestrator-agentic';
import { FileSessionStore } from '@agent-core/store-file';
import { addTool, scriptedProvider } from './frameworks/agent-core.js';
import { promptText, type Scenario } from './scenario.js';

const root = await mkdtemp(join(tmpdir(), 'bench-sessions-'));

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
let prompts = 0;
// Each prompt's calls get ids of their own: a reply reusing an id of the history is refused.
const replay: Provider = {
  name: 'scripted',
  async *stream(request, options) {
    for await (const event of current.stream(request, options)) {
      if (event.type === 'done')
        for (const block of event.message.content)
          if (block.type === 'toolCall') block.id = `p${prompts}_${block.id}`;
      yield event;
    }
  },
};
const manager = new SessionManager({
  store: bytesStore,
  agentOptions: () => ({
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
  prompts++;
  const result = await long.prompt(promptText).result();
  if (result.terminateReason !== 'completed')
    throw new Error(`prompt ${prompt} ended ${result.terminateReason}: ${result.error?.message}`);
}
const historyBytes = Buffer.byteLength(JSON.stringify(long.messages));
const steps = long.messages.filter((message) => message.role === 'assistant').length;
await rm(root, { recursive: true, force: true });

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const lines = [
  `FileSessionStore saves: ${number(savesPerSecond)} per second (a ${number(snapshotBytes / 1024, 1)} KB session).`,
  '',
  `Bytes written over a ${number(steps)}-step session (100 prompts of 10 tool steps): ${number(bytesStore.bytesWritten / 1024)} KB for a final history of ${number(historyBytes / 1024)} KB of JSON: ${number(bytesStore.bytesWritten / historyBytes, 2)}×.`,
];
process.stdout.write(`${lines.join('\n')}\n`);
