// The load test's process: `node --expose-gc load-child.mjs <store> <where> <sessions> <folder>`,
// `<store>` `file` (`<where>` a root folder) or `postgres` (`<where>` `<url>#<schema>`). It runs
// <sessions> sessions at once through one SessionManager, each prompting with its own marker, which
// the model passes to a tool that writes a file named after it; then checks that every answer,
// file and event belongs to its session, removes every session, and prints one JSON report with the
// heap, file descriptors and child processes before and after.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SessionManager } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { mock } from '@agent-core/provider-mock';
import { openStore } from './child-stores.mjs';

const [kind, where, count, folder] = process.argv.slice(2);
const sessions = Number(count);
const unhandled = [];
process.on('unhandledRejection', (reason) => unhandled.push(String(reason)));

const markerOf = (text) => /marker (m-\w+)/.exec(text)?.[1];

const writeMarker = {
  name: 'write_marker',
  description: 'writes a marker to its own file',
  parameters: { type: 'object', properties: { marker: { type: 'string' } }, required: ['marker'] },
  async execute({ marker }) {
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 10));
    writeFileSync(join(folder, 'files', `${marker}.txt`), marker);
    return readFileSync(join(folder, 'files', `${marker}.txt`), 'utf8');
  },
};

const gc = () => {
  for (let round = 0; round < 4; round++) globalThis.gc();
};
const fds = () => readdirSync('/proc/self/fd').length;
const children = () => {
  try {
    return execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.endsWith(' ps'));
  } catch {
    return []; // ps exits 1 when it lists nothing
  }
};

// Stateless: the first call asks the tool to write the prompt's marker, the second answers with what it wrote.
function makeProvider() {
  // A provider per round: the mock keeps every request it was sent.
  return mock({
    chunkSize: 8,
    turns: (request) => {
      const prompt = request.messages.find((message) => message.role === 'user');
      const marker = markerOf(typeof prompt?.content === 'string' ? prompt.content : '');
      const result = request.messages.findLast((message) => message.role === 'toolResult');
      const latencyMs = 5 + Math.random() * 20;
      if (result === undefined)
        return { toolCalls: [{ name: 'write_marker', input: { marker } }], latencyMs };
      return { text: `The file of ${marker} holds ${result.content}.`, latencyMs };
    },
  });
}

/** Runs `total` sessions at once; returns what belongs to another session, if anything. */
async function round(prefix, total) {
  const store = await openStore(kind, where);
  const provider = makeProvider();
  const manager = new SessionManager({
    store,
    agentOptions: () => ({ provider, model: 'mock', tools: [writeMarker], orchestrator: agentic() }),
  });
  const crossTalk = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: total }, async (_, index) => {
      const marker = `m-${prefix}${index}`;
      const session = await manager.create({ id: `${prefix}-${index}`, metadata: { marker } });
      const run = session.prompt(`Write the marker ${marker} to its file.`);
      const events = [];
      for await (const event of run) events.push(event);
      const result = await run.result();
      // Deltas cut the marker anywhere: they are checked joined, every other event as it is.
      const streamed = events.filter((event) => event.type === 'text_delta').map((event) => event.delta);
      const whole = events.filter((event) => event.type !== 'text_delta');
      const others = new Set(JSON.stringify(whole).match(/m-\w+/g));
      others.delete(marker);
      if (others.size > 0) crossTalk.push(`${marker}: events name ${[...others].join(', ')}`);
      if (streamed.join('') !== result.text) crossTalk.push(`${marker}: streamed ${streamed.join('')}`);
      if (events.some((event) => event.runId !== events[0].runId))
        crossTalk.push(`${marker}: events of two runs`);
      if (result.terminateReason !== 'completed' || result.text !== `The file of ${marker} holds ${marker}.`)
        crossTalk.push(`${marker}: ${result.terminateReason} ${result.text} ${result.error?.message ?? ''}`);
      if (readFileSync(join(folder, 'files', `${marker}.txt`), 'utf8') !== marker)
        crossTalk.push(`${marker}: its file holds something else`);
      const stored = await store.load(session.id);
      const storedMarkers = new Set(JSON.stringify(stored).match(/m-\w+/g));
      if (storedMarkers.size !== 1 || !storedMarkers.has(marker))
        crossTalk.push(`${marker}: its stored session names ${[...storedMarkers].join(', ')}`);
    }),
  );
  const durationMs = performance.now() - started;
  for (let index = 0; index < total; index++) await manager.remove(`${prefix}-${index}`);
  const left = (await store.list({ limit: 10 })).sessions.length;
  await store.close?.();
  return { crossTalk, durationMs, left };
}

mkdirSync(join(folder, 'files'), { recursive: true });
// A warm-up round of the same size loads every module, fills every lazy cache and lets the engine
// optimise the hot paths, so what stays after the measured round is growth.
await round('warm', sessions);
gc();
const before = { heap: process.memoryUsage().heapUsed, fds: fds(), children: children().length };
const measured = await round('load', sessions);
// A descriptor closed asynchronously may still be open for a moment: wait for it, up to two seconds.
for (let wait = 0; wait < 40 && fds() > before.fds; wait++)
  await new Promise((resolve) => setTimeout(resolve, 50));
gc();
const after = { heap: process.memoryUsage().heapUsed, fds: fds(), children: children().length };
process.stdout.write(
  `${JSON.stringify({ sessions, ...measured, before, after, unhandled, files: readdirSync(join(folder, 'files')).length })}\n`,
);
