#!/usr/bin/env node
// Proves that core, orchestrator-agentic and provider-mock run in a real browser as users get
// them: packs the three packages, installs the tarballs with plain npm in a fresh project
// outside the workspace, typechecks the page's code against their packed types with the DOM
// library and no Node types, bundles it with esbuild for the browser (no import of a Node
// module, no Node global: see lib/inspect-bundle.mjs), and runs its scenarios in headless
// Chromium from http://localhost and from a plain http:// origin that is not a secure context.
// Any failed scenario, page error, console error or failed request fails the check.
//
// Usage: node scripts/browser-check/check-browser.mjs [--keep] [--no-build] [--verbose]
//   --keep      keep the temporary folder (its path is printed) to look into a failure
//   --no-build  do not run `turbo run build` for the three packages first
//   --verbose   print the details of passing steps too
// Chromium: CHROMIUM_PATH, else /usr/bin/chromium (Debian's `chromium` package). Without it the
// check is skipped with a notice, except under CI=true, where it fails.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import * as esbuild from 'esbuild';
import { freshFolder, npmInstallOptions, userEnvironment } from '../pack-check/lib/environment.mjs';
import { buildPackages, describeFailure, runCommand } from '../pack-check/lib/run-command.mjs';
import { bundleProblems, nodeBuiltins, nodeGlobalDefines } from './lib/inspect-bundle.mjs';
import { launchChromium, plainHttpHost } from './lib/run-page.mjs';
import { startStaticServer } from './lib/static-server.mjs';

const root = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const here = new URL('.', import.meta.url).pathname;
const options = new Set(process.argv.slice(2));
const started = performance.now();
const require = createRequire(import.meta.url);
const pageTimeoutMs = 30_000;

/** The packages the page uses, by workspace folder. */
const packages = [
  { name: '@agent-core/core', dir: 'packages/core' },
  { name: '@agent-core/orchestrator-agentic', dir: 'packages/orchestrator-agentic' },
  { name: '@agent-core/provider-mock', dir: 'packages/provider-mock' },
];

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

// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by this script, which no turbo task runs
const chromiumPath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ci = (process.env.CI ?? '').toLowerCase();
const inCi = ci !== '' && ci !== '0' && ci !== 'false';
if (!existsSync(chromiumPath)) {
  const install = "install Debian's chromium package (apt-get install -y chromium) or set CHROMIUM_PATH";
  if (inCi) {
    console.error(`FAIL browser check: no Chromium at ${chromiumPath}; ${install}. Under CI it never skips.`);
    process.exit(1);
  }
  console.log(`browser check skipped: no Chromium at ${chromiumPath}; ${install} to run it.`);
  process.exit(0);
}

const temporaryRoot = mkdtempSync(join(tmpdir(), 'agent-core-browser-check-'));
/** @type {(() => Promise<void>)[]} */
const closers = [];
try {
  await run();
} catch (error) {
  report({
    name: 'browser check',
    ok: false,
    details: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
} finally {
  for (const close of closers.reverse()) await close().catch(() => {});
  if (options.has('--keep')) console.log(`kept ${temporaryRoot}`);
  else rmSync(temporaryRoot, { recursive: true, force: true });
}

const failed = results.filter((result) => !result.ok);
if (failed.length > 0) console.log(`\nFailed:\n${failed.map((result) => `  ${result.name}`).join('\n')}`);
console.log(`\nbrowser check took ${((performance.now() - started) / 1000).toFixed(0)} s`);
console.log(`browser: ${results.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length > 0 ? 1 : 0);

async function run() {
  const pnpm = join(root, 'node_modules', '.bin', 'pnpm');
  if (!options.has('--no-build')) {
    const built = await buildPackages(
      root,
      packages.map((item) => item.name),
    );
    report({
      name: 'build the three packages',
      ok: built.code === 0,
      details: built.code === 0 ? undefined : describeFailure('turbo run build', built),
    });
    if (built.code !== 0) return;
  }

  // 1. Pack, and install the tarballs as a user's `npm i` would, outside the workspace.
  const tarballFolder = join(temporaryRoot, 'tarballs');
  const tarballs = await Promise.all(
    packages.map(async (item) => {
      const packed = await runCommand(pnpm, ['pack', '--pack-destination', tarballFolder], {
        cwd: join(root, item.dir),
        timeoutMs: 120_000,
      });
      const { version } = JSON.parse(readFileSync(join(root, item.dir, 'package.json'), 'utf8'));
      const file = join(tarballFolder, `${item.name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`);
      const ok = packed.code === 0 && existsSync(file);
      if (!ok) report({ name: `${item.name}: pnpm pack`, ok, details: describeFailure('pnpm pack', packed) });
      return ok ? file : undefined;
    }),
  );
  if (tarballs.includes(undefined)) return;
  const core = JSON.parse(readFileSync(join(root, 'packages/core/package.json'), 'utf8'));
  const zodRange = core.dependencies.zod.replace(/^catalog:$/, readCatalogZod());
  const project = freshFolder(temporaryRoot, 'page');
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'browser-check-page', private: true, type: 'module' }, null, 2)}\n`,
  );
  const install = [.../** @type {string[]} */ (tarballs), `zod@${zodRange}`];
  const env = userEnvironment({ TMPDIR: project });
  const installed = await runCommand('npm', ['install', ...npmInstallOptions, ...install], {
    cwd: project,
    env,
    timeoutMs: 300_000,
  });
  report({
    name: `install the packed packages and zod@${zodRange} with npm`,
    ok: installed.code === 0,
    details: installed.code === 0 ? undefined : describeFailure('npm install', installed),
  });
  if (installed.code !== 0) return;

  // 2. The page's code, typechecked as a browser project: DOM types, no Node types.
  cpSync(join(here, 'page'), join(project, 'page'), { recursive: true });
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022',
        module: 'esnext',
        moduleResolution: 'bundler',
        lib: ['es2022', 'dom'],
        types: [],
        strict: true,
        noUncheckedIndexedAccess: true,
        skipLibCheck: false,
        noEmit: true,
      },
      include: ['page'],
    }),
  );
  const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
  const checked = await runCommand(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], {
    cwd: project,
    env,
    timeoutMs: 180_000,
  });
  report({
    name: 'the page typechecks against the packed types (DOM library, no @types/node)',
    ok: checked.code === 0,
    details: checked.code === 0 ? undefined : describeFailure('tsc', checked),
  });

  // 3. One browser bundle, inspected for Node modules and globals.
  let built;
  try {
    built = await esbuild.build({
      entryPoints: [join(project, 'page', 'main.ts')],
      absWorkingDir: project,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      write: false,
      metafile: true,
      // Left external so that the metafile names them; a browser could not load them.
      external: nodeBuiltins,
      define: nodeGlobalDefines,
      logLevel: 'silent',
    });
  } catch (error) {
    report({ name: 'bundle the page with esbuild', ok: false, details: String(error) });
    return;
  }
  const code = built.outputFiles[0]?.text ?? '';
  const ours = Object.keys(built.metafile.inputs).filter((file) =>
    file.includes('node_modules/@agent-core/'),
  );
  const problems = bundleProblems(built.metafile, code);
  report({
    name: `the bundle has no Node module or global (${Object.keys(built.metafile.inputs).length} modules, ${ours.length} of ours, ${(code.length / 1024).toFixed(0)} KB)`,
    ok: problems.length === 0 && ours.length > 0,
    details:
      problems.length > 0
        ? problems.join('\n')
        : ours.length === 0
          ? 'none of our modules were bundled'
          : undefined,
  });

  // 4. The page in Chromium, from a secure origin and from one that is not.
  const server = await startStaticServer({
    '/': { type: 'text/html; charset=utf-8', body: readFileSync(join(here, 'page', 'index.html'), 'utf8') },
    '/bundle.js': { type: 'text/javascript; charset=utf-8', body: code },
  });
  closers.push(server.close);
  const browser = await launchChromium(chromiumPath);
  closers.push(browser.close);
  report({ name: `Chromium ${browser.version} started (${chromiumPath})`, ok: true });
  const origins = [
    { url: `http://localhost:${server.port}/`, secure: true, randomUUID: 'function' },
    { url: `http://${plainHttpHost}:${server.port}/`, secure: false, randomUUID: 'undefined' },
  ];
  for (const origin of origins) {
    const { report: page, errors } = await browser.open(origin.url, pageTimeoutMs);
    const where = new URL(origin.url).origin;
    if (page !== undefined) {
      const runtime = `isSecureContext ${page.isSecureContext}, crypto.randomUUID ${page.randomUUID}, Node globals: ${page.nodeGlobals.join(', ') || 'none'}`;
      report({
        name: `${where}: ${origin.secure ? 'a secure context' : 'not a secure context'}, no Node globals`,
        ok:
          page.isSecureContext === origin.secure &&
          page.randomUUID === origin.randomUUID &&
          page.nodeGlobals.length === 0,
        details: runtime,
      });
      for (const result of page.results) {
        report({
          name: `${where}: ${result.name} (${result.durationMs.toFixed(0)} ms)`,
          ok: result.ok,
          details: result.details,
        });
      }
      const ran = new Set(page.results.map((result) => result.name));
      const unfinished = page.scenarios.filter((name) => !ran.has(name));
      report({
        name: `${where}: all ${page.scenarios.length} scenarios finished within ${pageTimeoutMs / 1000} s`,
        ok: page.finished && unfinished.length === 0 && page.scenarios.length > 0,
        details: unfinished.length > 0 ? `unfinished: ${unfinished.join(', ')}` : undefined,
      });
    }
    report({
      name: `${where}: no page error, console error or failed request`,
      ok: errors.length === 0 && page !== undefined,
      details: errors.join('\n') || (page === undefined ? 'the page reported nothing' : undefined),
    });
  }
}

/** The zod range of the workspace catalog, which core's `catalog:` dependency stands for. */
function readCatalogZod() {
  const workspace = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const range = /^\s+zod:\s*(\S+)\s*$/m.exec(workspace)?.[1];
  if (range === undefined) throw new Error('pnpm-workspace.yaml has no catalog entry for zod');
  return range;
}
