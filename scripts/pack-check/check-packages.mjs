#!/usr/bin/env node
// Proves the packages work the way users install them: packs every public
// package with `pnpm pack`, checks each tarball (metadata, files, exports,
// publint, attw), serves them from a local registry for our scope only, and
// then, in fresh projects outside the workspace, installs pick-and-mix
// combinations with plain npm, installs the demo globally, measures each
// package's install footprint for the README, and checks the release flow.
//
// Usage: node scripts/pack-check/check-packages.mjs [--write] [--keep] [--no-build] [--verbose]
//   --write     update the footprint table in README.md instead of failing on a difference
//   --keep      keep the temporary folder (its path is printed) to look into a failure
//   --no-build  do not run `turbo run build` first
//   --verbose   print the details of passing steps too (which packages each import loaded)
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { checkChangesets } from './lib/changesets-check.mjs';
import { combinations, runCombination } from './lib/combinations.mjs';
import { checkGlobalInstall } from './lib/demo-install.mjs';
import { footprintTable, measureFootprint, syncReadmeTable } from './lib/footprint.mjs';
import { inspectArtefact } from './lib/inspect-artefact.mjs';
import { attwProblems, publintProblems } from './lib/lint-artefact.mjs';
import { startLocalRegistry } from './lib/local-registry.mjs';
import { startModelServers } from './lib/model-servers.mjs';
import { readTarball } from './lib/read-tarball.mjs';
import { buildPackages, describeFailure, mapWithLimit, runCommand } from './lib/run-command.mjs';

const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const options = new Set(process.argv.slice(2));
const started = performance.now();
const require = createRequire(import.meta.url);

/** @typedef {{ name: string, ok: boolean, details?: string }} StepResult */
/** @type {StepResult[]} */
const results = [];
/** @param {StepResult} result */
function report(result) {
  results.push(result);
  const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
  console.log(`${result.ok ? 'ok  ' : 'FAIL'} ${seconds}s  ${result.name}`);
  if (result.details !== undefined && (!result.ok || options.has('--verbose')))
    console.log(result.details.replace(/^/gm, '               '));
}

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  console.error(
    `The package check needs Node 20.19 or newer (require of ES modules); this is ${process.versions.node}.`,
  );
  process.exit(1);
}

// Every workspace package; the public ones are those whose manifest is not private.
const workspacePackages = ['packages', 'apps', 'bench']
  .flatMap((folder) => {
    if (folder === 'bench') return existsSync(join(root, 'bench', 'package.json')) ? ['bench'] : [];
    return readdirSync(join(root, folder)).map((dir) => `${folder}/${dir}`);
  })
  .filter((dir) => existsSync(join(root, dir, 'package.json')))
  .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) }));
const publicPackages = workspacePackages
  .filter((item) => item.manifest.private !== true && !item.dir.startsWith('bench'))
  .map((item) => ({
    name: /** @type {string} */ (item.manifest.name),
    dir: item.dir,
    isApp: item.manifest.exports?.['.'] === undefined && item.manifest.bin !== undefined,
  }));
const libraries = publicPackages.filter((item) => !item.isApp).map((item) => item.name);
console.log(`public packages: ${publicPackages.map((item) => item.name).join(', ')}`);

const pnpm = join(root, 'node_modules', '.bin', 'pnpm');
const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });

if (!options.has('--no-build')) {
  const built = await buildPackages(
    root,
    publicPackages.map((item) => item.name),
  );
  report({
    name: 'build the public packages',
    ok: built.code === 0,
    details: built.code === 0 ? undefined : describeFailure('turbo run build', built),
  });
}

// Outside the workspace, and with no node_modules above it that could resolve for the projects in it.
const temporaryRoot = mkdtempSync(join(tmpdir(), 'agent-core-pack-check-'));
for (let folder = dirname(temporaryRoot); ; folder = dirname(folder)) {
  if (existsSync(join(folder, 'node_modules')))
    report({
      name: 'isolation',
      ok: false,
      details: `${join(folder, 'node_modules')} would resolve for the test projects`,
    });
  if (dirname(folder) === folder) break;
}
if (temporaryRoot.startsWith(`${root}${sep}`))
  throw new Error('the temporary folder is inside the workspace');
const tarballFolder = join(temporaryRoot, 'tarballs');

/** @type {Map<string, import('./lib/read-tarball.mjs').Tarball>} */
const tarballs = new Map();
/** @type {Map<string, string>} */
const failedPackages = new Map();
const registryClosers = [];
try {
  // 1. Pack and inspect every public package.
  await mapWithLimit(publicPackages, 4, async (item) => {
    const packed = await runCommand(pnpm, ['pack', '--pack-destination', tarballFolder], {
      cwd: join(root, item.dir),
      timeoutMs: 120_000,
    });
    const version = workspacePackages.find((candidate) => candidate.manifest.name === item.name)?.manifest
      .version;
    const file = join(tarballFolder, `${item.name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
    if (packed.code !== 0 || !existsSync(file)) {
      failedPackages.set(item.name, 'pnpm pack failed');
      report({ name: `${item.name}: pnpm pack`, ok: false, details: describeFailure('pnpm pack', packed) });
      return;
    }
    tarballs.set(item.name, readTarball(file));
  });
  const coreVersion = tarballs.get('@agent-core/core')?.manifest.version ?? '';
  await mapWithLimit(publicPackages, 2, async (item) => {
    const tarball = tarballs.get(item.name);
    if (tarball === undefined) return;
    const problems = inspectArtefact(item, tarball, coreVersion);
    const publint = await publintProblems(tarball);
    const attw = await attwProblems(tarball);
    report({
      name: `${item.name}: tarball (${tarball.files.size} files)`,
      ok: problems.length === 0,
      details: problems.join('\n') || undefined,
    });
    report({
      name: `${item.name}: publint`,
      ok: publint.length === 0,
      details: publint.join('\n') || undefined,
    });
    report({ name: `${item.name}: attw`, ok: attw === undefined, details: attw });
  });

  // 2. Our scope from a local registry; model APIs from local servers.
  const registry = await startLocalRegistry([...tarballs.values()]);
  registryClosers.push(registry.close);
  const modelServers = await startModelServers();
  registryClosers.push(modelServers.close);
  const context = {
    registryArguments: registry.npmArguments,
    modelServers,
    tarballs,
    libraries,
    failedPackages,
    temporaryRoot,
    tsc,
  };

  // 3. Footprints, then combinations and the global demo side by side.
  const footprints = await mapWithLimit(publicPackages, 4, async (item) => {
    const tarball = tarballs.get(item.name);
    if (tarball === undefined) return undefined;
    const footprint = await measureFootprint(tarball, context);
    if (typeof footprint === 'string') {
      report({ name: `${item.name}: footprint`, ok: false, details: footprint });
      return undefined;
    }
    return footprint;
  });
  const measured = footprints.filter((item) => item !== undefined);
  const readmeProblem = syncReadmeTable(
    join(root, 'README.md'),
    footprintTable(measured),
    options.has('--write'),
  );
  report({
    name: `README footprint table matches the measurement${options.has('--write') ? ' (written)' : ''}`,
    ok: readmeProblem === undefined,
    details: readmeProblem,
  });
  const core = measured.find((item) => item.name === '@agent-core/core');
  if (core !== undefined) {
    report({
      name: '@agent-core/core installs with zod as its only dependency',
      ok: core.installed.join() === 'zod',
      details: `installs: ${core.installed.join(', ')}`,
    });
  }

  const apps = publicPackages.filter((item) => item.isApp && tarballs.has(item.name));
  await Promise.all([
    mapWithLimit(combinations, 2, (combination) => runCombination(combination, context, report)),
    mapWithLimit(apps, 1, (item) =>
      checkGlobalInstall(/** @type {any} */ (tarballs.get(item.name)), context, report),
    ),
  ]);

  // 4. Releases.
  await checkChangesets(root, workspacePackages, temporaryRoot, report);
} catch (error) {
  report({
    name: 'package check',
    ok: false,
    details: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
} finally {
  for (const close of registryClosers) await close();
  if (options.has('--keep')) console.log(`kept ${temporaryRoot}`);
  else rmSync(temporaryRoot, { recursive: true, force: true });
}

const failed = results.filter((result) => !result.ok);
const seconds = ((performance.now() - started) / 1000).toFixed(0);
if (failed.length > 0) {
  console.log(`\nFailed:\n${failed.map((result) => `  ${result.name}`).join('\n')}`);
}
console.log(`\npackage check took ${seconds} s`);
console.log(`packages: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length > 0 ? 1 : 0);
