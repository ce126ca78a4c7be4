import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// What the orchestrator context's enforcement costs per step: the contracts (unanswered calls
// refused, calls claimed while they run, turns counted per model call, frozen history messages,
// the provider's own copy of the request, streamed tool calls kept). Builds the core of a git
// ref (default `main`, before the contracts) into a folder beside this one, then runs
// `compare-builds.js` against the workspace's build, in alternating batches in one process, for
// the sequential, parallel and ReAct loops at N = 10, 100 and 1,000 steps:
//   node --expose-gc dist/contract-cost.js [--ref main] [--seconds 8] [--steps 10,100,1000]
// Prints each row's µs per step before and after, and the ratio.

const bench = fileURLToPath(new URL('..', import.meta.url));
const root = join(bench, '..');
const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const index = args.indexOf(name);
  return index === -1 ? fallback : (args[index + 1] ?? fallback);
};
const ref = option('--ref', 'main');
const seconds = option('--seconds', '8');
const stepCounts = option('--steps', '10,100,1000').split(',');

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

const before = buildCore();
const after = join(root, 'packages', 'core', 'dist');
const modes: { label: string; flags: string[] }[] = [
  { label: 'agentic sequential', flags: [] },
  { label: 'agentic parallel', flags: ['--parallel'] },
  { label: 'ReAct', flags: ['--react'] },
];
const rows: string[] = [];
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
    rows.push(
      `| ${mode.label} | ${steps} | ${was.toFixed(2)} | ${now.toFixed(2)} | ${(now - was).toFixed(2)} | ${ratio.toFixed(3)}× |`,
    );
    process.stderr.write(`${rows.at(-1)}\n`);
  }
}
process.stdout.write(
  [
    `| loop | N | before (${ref}), µs per step | after, µs per step | difference, µs | after / before (median of paired batches) |`,
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
  ].join('\n'),
);
