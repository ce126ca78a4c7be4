import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { FrameworkResult } from './results.js';

// Workload 15: what the orchestrator context's enforcement of the contracts costs per step
// (unanswered calls refused, calls claimed while they run, every model call a turn, history
// messages frozen as they join it, read-only views of the history, streamed tool calls kept,
// the stop grace). Builds the core of a git ref (default: main's last commit before the
// contracts) into a folder beside this one, then measures it against the workspace's build:
// 1. `compare-builds.js`, both builds in one process in alternating batches, for the
//    sequential, parallel and ReAct loops at N = 10, 100 and 1,000: µs per step before and after;
// 2. workload 1 as `pnpm bench` runs it (`child.js`, the bare loop alternating in the same
//    process, three passes), for each build in turn, twice: the plain run's ratio to the bare
//    loop, the median of the six passes and their range.
//   node --expose-gc dist/contract-cost.js [--ref <git ref>] [--seconds 8] [--steps 10,100,1000] [--rounds 2]
// A run with the defaults rewrites the README's section between the contract-cost markers.

/** main's last commit before the contracts were merged into it: the "before" build. */
const beforeContracts = '1de1918c2c37e999106e96bf7cc3100f16b3a04b';

const bench = fileURLToPath(new URL('..', import.meta.url));
const root = join(bench, '..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(name);
  return index === -1 ? fallback : (args[index + 1] ?? fallback);
};
const ref = option('--ref', beforeContracts);
const seconds = option('--seconds', '8');
const stepCounts = option('--steps', '10,100,1000').split(',');
const rounds = Number(option('--rounds', '2'));
const defaults = !['--ref', '--seconds', '--steps', '--rounds'].some((name) => args.includes(name));
const refLabel = ref === beforeContracts ? `main before the contracts (${ref.slice(0, 7)})` : ref;

/** Builds `ref`'s packages/core into a folder inside the bench (so its imports of zod resolve) and returns its dist. */
function buildCore(): string {
  const folder = join(bench, '.builds', `core-${ref.replace(/[^\w.-]/g, '_')}`);
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const archive = join(tmpdir(), `agent-core-${process.pid}.tar`);
  execFileSync('git', [
    '-C',
    root,
    'archive',
    '--output',
    archive,
    ref,
    'packages/core',
    'tsconfig.base.json',
  ]);
  execFileSync('tar', ['-xf', archive, '-C', folder]);
  rmSync(archive, { force: true });
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', join(folder, 'packages', 'core', 'tsconfig.build.json')], {
    stdio: 'inherit',
  });
  return join(folder, 'packages', 'core', 'dist');
}

const startLoad = loadavg()[0] ?? 0;
const before = buildCore();
const after = join(root, 'packages', 'core', 'dist');

// 1. Paired batches in one process.
const modes: { label: string; flags: string[] }[] = [
  { label: 'agentic sequential', flags: [] },
  { label: 'agentic parallel', flags: ['--parallel'] },
  { label: 'ReAct', flags: ['--react'] },
];
const paired: string[] = [];
for (const mode of modes) {
  for (const steps of stepCounts) {
    const run = spawnSync(
      process.execPath,
      ['--expose-gc', join(bench, 'dist', 'compare-builds.js'), steps, seconds, before, after, ...mode.flags],
      { encoding: 'utf8' },
    );
    if (run.status !== 0)
      throw new Error(`compare-builds failed for ${mode.label} N = ${steps}: ${run.stderr}`);
    const lines = run.stdout.trim().split('\n');
    const perStep = (line: string | undefined) => Number(/([\d.]+) µs per step/.exec(line ?? '')?.[1]);
    const ratio = Number(/([\d.]+)× the first/.exec(lines[1] ?? '')?.[1]);
    const was = perStep(lines[0]);
    const now = perStep(lines[1]);
    paired.push(
      `| ${mode.label} | ${Number(steps).toLocaleString('en')} | ${was.toFixed(2)} | ${now.toFixed(2)} | ${(now - was >= 0 ? '+' : '') + (now - was).toFixed(2)} | ${ratio.toFixed(3)}× |`,
    );
    process.stderr.write(`${paired.at(-1)}\n`);
  }
}

// 2. Workload 1 as `pnpm bench` measures it, each build in its own process.
const hook = pathToFileURL(join(bench, 'dist', 'core-from.js')).href;
function workloadOne(contender: string, dist: string): FrameworkResult {
  const out = join(tmpdir(), `agent-core-contract-cost-${process.pid}.json`);
  const run = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', hook, join(bench, 'dist', 'child.js'), contender, out, '1000', '1', '3'],
    { encoding: 'utf8', cwd: bench, env: { ...process.env, AGENT_CORE_DIST: dist === after ? '' : dist } },
  );
  if (run.status !== 0) throw new Error(`child.js failed for ${contender} (${dist}): ${run.stderr}`);
  const result = JSON.parse(readFileSync(out, 'utf8')) as FrameworkResult;
  rmSync(out, { force: true });
  return result;
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};
const plain: string[] = [];
const builds = [
  ['before', before],
  ['after', after],
] as const;
for (const [contender, label] of [
  ['core-seq', 'agentic sequential'],
  ['core-par', 'agentic parallel'],
] as const) {
  // Two rounds, the builds alternating, so a slow minute of the machine does not land on one build only.
  const runs: Record<string, FrameworkResult[]> = { before: [], after: [] };
  for (let round = 0; round < rounds; round++)
    for (const [build, dist] of builds) runs[build]?.push(workloadOne(contender, dist));
  for (const [build] of builds) {
    const results = runs[build] ?? [];
    const cells = (results[0]?.perStep ?? []).map((_, index) => {
      const cellsOfN = results.map((result) => result.perStep[index]).filter((cell) => cell !== undefined);
      const passes = cellsOfN.flatMap((cell) => cell.passRatios ?? [cell.ratio]);
      const micros = median(cellsOfN.map((cell) => cell.microsPerStep));
      return `${micros.toFixed(1)} µs, ${median(passes).toFixed(2)}× (${Math.min(...passes).toFixed(2)}–${Math.max(...passes).toFixed(2)}×)`;
    });
    plain.push(`| ${label} | ${build} | ${cells.join(' | ')} |`);
    process.stderr.write(`${plain.at(-1)}\n`);
  }
}

const markdown = [
  `Measured ${new Date().toISOString().slice(0, 10)} on Node ${process.versions.node}, load average ${startLoad.toFixed(1)} at the start and ${loadavg()[0]?.toFixed(1)} at the end.`,
  '',
  `Per step, the two builds in one process, in alternating batches (\`compare-builds.js\`, ${seconds} s per row): before is ${refLabel}, after is this workspace's core.`,
  '',
  '| loop | N | before, µs per step | after, µs per step | difference, µs | after ÷ before (median of paired batches) |',
  '| --- | ---: | ---: | ---: | ---: | ---: |',
  ...paired,
  '',
  `The plain run against the bare loop, workload 1 as \`pnpm bench\` measures it (the bare loop alternating in the contender's process, three passes); each build in a process of its own, the builds in turn, ${rounds === 1 ? 'once' : `${rounds} times`}: the median µs per step, the median ratio of the ${3 * rounds} passes and their range (the target: ≤ 3× the bare loop).`,
  '',
  '| contender | build | N = 10 | N = 100 | N = 1,000 |',
  '| --- | --- | --- | --- | --- |',
  ...plain,
  '',
].join('\n');
process.stdout.write(`\n${markdown}\n`);

if (defaults) {
  const readmePath = join(bench, 'README.md');
  const start = '<!-- contract-cost:start -->';
  const end = '<!-- contract-cost:end -->';
  const readme = readFileSync(readmePath, 'utf8');
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from !== -1 && to > from)
    writeFileSync(readmePath, `${readme.slice(0, from + start.length)}\n${markdown}\n${readme.slice(to)}`);
}
