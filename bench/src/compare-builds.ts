import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import type * as Core from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { react } from '@agent-core/orchestrator-react';
import { z } from 'zod';
import { scriptedProvider } from './frameworks/agent-core.js';
import { bareFramework } from './frameworks/bare.js';
import { scriptedReactProvider } from './frameworks/react-provider.js';
import { median } from './measure.js';
import { addResult, promptText, stepScenario, toolName } from './scenario.js';

// Two or more builds of core's dist, imported side by side in this one process and run in
// alternating batches a few milliseconds long, so that a machine whose speed changes every
// few seconds slows them alike. Prints each build's time per step against the first's:
//   node --expose-gc dist/compare-builds.js <steps> <seconds> <dist dir> <dist dir>... [--deltas 50] [--iterate] [--react] [--parallel] [--policy] [--session] [--bare]
// --bare runs the bare loop in the same alternation and prints each build's ratio to it too.
// --policy asks for every call and an approver allows it; --session runs each prompt as a new
// session of a SessionManager over a MemorySessionStore (both from the build measured).
// Copy packages/core/dist aside before a change (cp -r packages/core/dist /tmp/before) and compare it with the new build.
// The orchestrators come from the workspace and reach each build's Agent only through its context.

const args = process.argv.slice(2);
const flagValue = (name: string) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args.splice(index, 2)[1];
};
const flag = (name: string) => {
  const index = args.indexOf(name);
  if (index !== -1) args.splice(index, 1);
  return index !== -1;
};
const deltas = Number(flagValue('--deltas') ?? 0);
const iterate = flag('--iterate');
const useReact = flag('--react');
const parallel = flag('--parallel');
const policy = flag('--policy');
const session = flag('--session');
const withBare = flag('--bare');
const [steps, seconds, ...dirs] = args;
if (steps === undefined || seconds === undefined || dirs.length < 2)
  throw new Error(
    'usage: compare-builds.js <steps> <seconds> <dist dir> <dist dir>... [--deltas n] [--iterate] [--react] [--parallel] [--policy] [--session] [--bare]',
  );

const scenario = stepScenario(Number(steps), deltas, iterate);
const builds: { name: string; run: () => Promise<void>; samples: number[] }[] = [];
for (const dir of dirs) {
  const core = (await import(pathToFileURL(resolve(dir, 'index.js')).href)) as typeof Core;
  const tool = core.defineTool({
    name: toolName,
    description: 'Adds two numbers and returns the sum.',
    parameters: z.object({ a: z.number(), b: z.number() }),
    execute: (input) => addResult(input),
  });
  const options = (): Core.AgentOptions => ({
    provider: useReact ? scriptedReactProvider(scenario) : scriptedProvider(scenario),
    model: 'scripted',
    tools: [tool],
    orchestrator: useReact ? react() : agentic({ toolExecution: parallel ? 'parallel' : 'sequential' }),
    limits: { maxTurns: scenario.steps + 1 },
    ...(policy ? { policy: () => 'ask' as const, approve: () => 'allow' as const } : {}),
  });
  const start = async (): Promise<Core.AgentRun> => {
    if (!session) return new core.Agent(options()).prompt(promptText);
    const manager = new core.SessionManager({
      store: new core.MemorySessionStore(),
      // Builds before the rename take the factory as `agent`.
      ...{ agent: options, agentOptions: options },
    });
    return (await manager.create()).prompt(promptText);
  };
  const run = async () => {
    const running = await start();
    if (iterate) for await (const _event of running);
    const result = await running.result();
    if (result.terminateReason !== 'completed')
      throw new Error(`${dir}: the run ended with ${result.terminateReason}: ${result.error?.message}`);
  };
  builds.push({ name: dir, run, samples: [] });
}

const bare = bareFramework();
if (withBare)
  builds.push({
    name: 'bare loop',
    run: async () => {
      await bare.run(scenario);
    },
    samples: [],
  });

const batch = Math.max(1, Math.round((deltas > 0 ? 200 : 2000) / scenario.steps));
for (let round = 0; round < 3; round++)
  for (const build of builds) for (let index = 0; index < batch * 5; index++) await build.run();
const end = performance.now() + Number(seconds) * 1000;
while (performance.now() < end) {
  for (const build of builds) {
    const start = performance.now();
    for (let index = 0; index < batch; index++) await build.run();
    build.samples.push(((performance.now() - start) * 1000) / (batch * scenario.steps));
  }
}
const first = builds[0] as (typeof builds)[number];
const bareBuild = withBare ? builds.at(-1) : undefined;
for (const build of builds) {
  const ratios = build.samples.map((sample, index) => sample / (first.samples[index] as number));
  const toBare =
    bareBuild === undefined || build === bareBuild
      ? ''
      : `, ${median(build.samples.map((sample, index) => sample / (bareBuild.samples[index] as number))).toFixed(3)}× the bare loop`;
  process.stdout.write(
    `${build.name}: ${median(build.samples).toFixed(2)} µs per step, ${median(ratios).toFixed(3)}× the first${toBare} (median of ${ratios.length} paired batches)\n`,
  );
}
