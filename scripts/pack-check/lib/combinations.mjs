// The pick-and-mix combinations: each one is a fresh project outside the
// workspace that installs some packages by name with plain npm, then imports
// them step by step, requires them from CommonJS, typechecks a consumer file
// under `node16` and `bundler` resolution, and runs a small offline agent.
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshFolder, npmInstallOptions, userEnvironment } from './environment.mjs';
import { describeFailure, runCommand } from './run-command.mjs';

const here = new URL('..', import.meta.url).pathname;
const none = { providers: [], orchestrators: [], toolPacks: [] };

/**
 * @typedef {{ providers: string[], orchestrators: string[], toolPacks: string[] }} Registrations
 * @typedef {{ name: string, install: string[] | 'all', registers?: Registrations, description: string, modelServer?: 'anthropic' | 'openai' }} Combination
 */

/**
 * The combinations users install most. `install` is the user's `npm i` line; `registers` is
 * what importing all of it must register, exactly. `everything` installs every public
 * library package found in the workspace.
 * @type {Combination[]}
 */
export const combinations = [
  {
    name: 'core-alone',
    description: 'core with a tool, a model and an orchestrator of the user own',
    install: ['@agent-core/core', 'zod'],
    registers: none,
  },
  {
    name: 'agentic-mock',
    description: 'core + orchestrator-agentic + provider-mock',
    install: ['@agent-core/core', '@agent-core/orchestrator-agentic', '@agent-core/provider-mock', 'zod'],
    registers: { providers: ['mock'], orchestrators: ['agentic'], toolPacks: [] },
  },
  {
    name: 'anthropic-fs',
    description: 'core + provider-anthropic + tools-fs',
    install: ['@agent-core/core', '@agent-core/provider-anthropic', '@agent-core/tools-fs'],
    modelServer: 'anthropic',
    registers: { providers: ['anthropic'], orchestrators: [], toolPacks: ['fs'] },
  },
  {
    name: 'react-openai-shell',
    description: 'core + orchestrator-react + provider-openai + tools-shell',
    install: [
      '@agent-core/core',
      '@agent-core/orchestrator-react',
      '@agent-core/provider-openai',
      '@agent-core/tools-shell',
    ],
    registers: { providers: ['openai'], orchestrators: ['react'], toolPacks: ['shell'] },
    modelServer: 'openai',
  },
  {
    name: 'everything',
    description: 'every public library package',
    install: 'all',
  },
];

/**
 * What a package registers when imported, read from the registration calls in its packed JavaScript.
 * @param {import('./read-tarball.mjs').Tarball} tarball
 * @returns {Registrations}
 */
export function registrationsOf(tarball) {
  /** @type {Registrations} */
  const found = { providers: [], orchestrators: [], toolPacks: [] };
  const kinds = { Provider: 'providers', Orchestrator: 'orchestrators', ToolPack: 'toolPacks' };
  for (const [path, file] of tarball.files) {
    if (!path.startsWith('dist/') || !path.endsWith('.js')) continue;
    for (const match of file.content
      .toString('utf8')
      .matchAll(/^register(Provider|Orchestrator|ToolPack)\(\s*['"]([^'"]+)['"]/gm)) {
      const kind = kinds[/** @type {keyof typeof kinds} */ (match[1])];
      found[/** @type {keyof Registrations} */ (kind)].push(match[2] ?? '');
    }
  }
  return found;
}

/**
 * @typedef {{ name: string, ok: boolean, details?: string }} StepResult
 * @typedef {{
 *   registryArguments: string[],
 *   modelServers: import('./model-servers.mjs').ModelServers,
 *   tarballs: Map<string, import('./read-tarball.mjs').Tarball>,
 *   libraries: string[],
 *   failedPackages: Map<string, string>,
 *   temporaryRoot: string,
 *   tsc: string,
 * }} CombinationContext
 */

/**
 * Runs one combination end to end. Every step reports on its own; a step that cannot run
 * because an earlier one failed reports that.
 * @param {Combination} combination
 * @param {CombinationContext} context
 * @param {(result: StepResult) => void} report
 */
export async function runCombination(combination, context, report) {
  const prefix = `combination ${combination.name}`;
  const ours =
    combination.install === 'all'
      ? context.libraries
      : combination.install.filter((name) => name.startsWith('@agent-core/'));
  const install = combination.install === 'all' ? context.libraries : combination.install;
  const blocked = ours.filter((name) => context.failedPackages.has(name) || !context.tarballs.has(name));
  if (blocked.length > 0) {
    report({
      name: `${prefix}: install`,
      ok: false,
      details: `blocked: ${blocked.join(', ')} could not be packed`,
    });
    return;
  }

  const project = freshFolder(context.temporaryRoot, combination.name);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name: `pack-check-${combination.name}`, private: true, type: 'module', devDependencies: { '@types/node': '^20.19.0' } }, null, 2)}\n`,
  );
  // The programs make scratch folders with os.tmpdir(): keep those inside the project, which is removed.
  const scratch = join(project, 'scratch');
  mkdirSync(scratch);
  const env = userEnvironment({ TMPDIR: scratch });
  const installed = await runCommand(
    'npm',
    ['install', ...npmInstallOptions, ...context.registryArguments, ...install],
    { cwd: project, env, timeoutMs: 300_000 },
  );
  if (installed.code !== 0) {
    report({
      name: `${prefix}: install`,
      ok: false,
      details: describeFailure(`npm i ${install.join(' ')}`, installed),
    });
    return;
  }
  const contents = installedContents(project, ours, context);
  report({
    name: `${prefix}: install (${install.join(' ')})`,
    ok: contents.length === 0,
    details: contents.join('\n'),
  });

  // The combination's own files: the user's program, and the generic checks.
  const registrations = Object.fromEntries(
    ours.map((name) => [name, registrationsOf(/** @type {any} */ (context.tarballs.get(name)))]),
  );
  const expected = combination.registers ?? union(Object.values(registrations));
  const coreManifest = context.tarballs.get('@agent-core/core')?.manifest ?? {};
  writeFileSync(
    join(project, 'combination.json'),
    `${JSON.stringify({ packages: ['@agent-core/core', ...ours.filter((name) => name !== '@agent-core/core')], registrations, expected, coreDependencies: Object.keys(coreManifest.dependencies ?? {}) }, null, 2)}\n`,
  );
  for (const file of ['load-hooks.mjs', 'record-loads.mjs', 'import-steps.mjs', 'require-all.cjs'])
    copyFileSync(join(here, 'consumer', file), join(project, file));
  copyFileSync(join(here, 'combinations', combination.name, 'main.ts'), join(project, 'main.ts'));
  writeFileSync(
    join(project, 'entrypoints.ts'),
    `// Every installed package's entry point, so both resolutions load all their types.\n${ours
      .map((name, index) => `import * as package${index} from '${name}';`)
      .join(
        '\n',
      )}\n\nexport const entrypoints: unknown[] = [${ours.map((_, index) => `package${index}`).join(', ')}];\n`,
  );
  const compilerOptions = {
    target: 'es2022',
    strict: true,
    noUncheckedIndexedAccess: true,
    // Our declaration files are checked too, as a user's strict project would.
    skipLibCheck: false,
    types: ['node'],
  };
  const files = ['main.ts', 'entrypoints.ts'];
  writeFileSync(
    join(project, 'tsconfig.node16.json'),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, module: 'node16', moduleResolution: 'node16', outDir: 'out' },
      files,
    }),
  );
  writeFileSync(
    join(project, 'tsconfig.bundler.json'),
    JSON.stringify({
      compilerOptions: { ...compilerOptions, module: 'esnext', moduleResolution: 'bundler', noEmit: true },
      files,
    }),
  );

  const node = process.execPath;
  const steps = await runCommand(node, ['import-steps.mjs'], { cwd: project, env, timeoutMs: 60_000 });
  report({
    name: `${prefix}: imports register exactly their plugins`,
    ok: steps.code === 0,
    details: steps.code === 0 ? loadSummary(steps.stdout) : describeFailure('import-steps.mjs', steps),
  });

  const required = await runCommand(node, ['require-all.cjs'], { cwd: project, env, timeoutMs: 60_000 });
  report({
    name: `${prefix}: require() from CommonJS`,
    ok: required.code === 0,
    details: required.code === 0 ? undefined : describeFailure('require-all.cjs', required),
  });

  for (const resolution of ['bundler', 'node16']) {
    const checked = await runCommand(
      node,
      [context.tsc, '-p', `tsconfig.${resolution}.json`, '--pretty', 'false'],
      { cwd: project, env, timeoutMs: 180_000 },
    );
    report({
      name: `${prefix}: tsc (moduleResolution ${resolution})`,
      ok: checked.code === 0,
      details: checked.code === 0 ? undefined : describeFailure('tsc', checked),
    });
  }

  if (!existsSync(join(project, 'out', 'main.js'))) {
    report({ name: `${prefix}: offline run`, ok: false, details: 'main.ts did not compile' });
    return;
  }
  // The program gets the base URL of its local model server, if it talks to one, as its argument.
  const modelUrl =
    combination.modelServer === 'anthropic'
      ? [context.modelServers.anthropicBaseUrl]
      : combination.modelServer === 'openai'
        ? [context.modelServers.openaiBaseUrl]
        : [];
  const ran = await runCommand(node, ['out/main.js', ...modelUrl], { cwd: project, env, timeoutMs: 60_000 });
  report({
    name: `${prefix}: offline run`,
    ok: ran.code === 0,
    details: ran.code === 0 ? undefined : describeFailure('main.js', ran),
  });
}

/** @param {Registrations[]} all @returns {Registrations} */
function union(all) {
  return {
    providers: all.flatMap((item) => item.providers),
    orchestrators: all.flatMap((item) => item.orchestrators),
    toolPacks: all.flatMap((item) => item.toolPacks),
  };
}

/**
 * Problems with what npm installed: exactly our requested packages (plus core, their peer),
 * and none of the SDKs that only packages we did not ask for bring.
 * @param {string} project
 * @param {string[]} ours
 * @param {CombinationContext} context
 */
function installedContents(project, ours, context) {
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8'));
  const present = new Set(
    Object.keys(lock.packages ?? {})
      .filter((path) => path !== '')
      .map((path) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)),
  );
  const problems = [];
  const wanted = new Set(['@agent-core/core', ...ours]);
  for (const name of present) {
    if (name.startsWith('@agent-core/') && !wanted.has(name))
      problems.push(`npm installed ${name}, which was not asked for`);
  }
  for (const name of wanted) if (!present.has(name)) problems.push(`npm did not install ${name}`);
  const ownDependencies = reachableFrom(
    lock,
    ours.flatMap((name) => Object.keys(context.tarballs.get(name)?.manifest.dependencies ?? {})),
  );
  for (const [name, tarball] of context.tarballs) {
    if (wanted.has(name)) continue;
    for (const dependency of Object.keys(tarball.manifest.dependencies ?? {})) {
      if (dependency.startsWith('@agent-core/') || ownDependencies.has(dependency)) continue;
      if (present.has(dependency))
        problems.push(`npm installed ${dependency}, the dependency of ${name}, which was not asked for`);
    }
  }
  return problems;
}

/**
 * Every package npm installed for `roots`, following the lock's dependency
 * entries: a package another plugin also depends on is fine when one of the
 * requested packages' own SDKs brings it too.
 * @param {{ packages?: Record<string, { dependencies?: Record<string, string>, peerDependencies?: Record<string, string>, optionalDependencies?: Record<string, string> }> }} lock
 * @param {string[]} roots
 */
function reachableFrom(lock, roots) {
  const entries = lock.packages ?? {};
  const reached = new Set();
  const queue = [...roots];
  while (queue.length > 0) {
    const name = /** @type {string} */ (queue.pop());
    if (reached.has(name) || name.startsWith('@agent-core/')) continue;
    reached.add(name);
    const entry = entries[`node_modules/${name}`];
    if (entry === undefined) continue;
    for (const field of [entry.dependencies, entry.peerDependencies, entry.optionalDependencies])
      for (const dependency of Object.keys(field ?? {})) queue.push(dependency);
  }
  return reached;
}

/** @param {string} stdout */
function loadSummary(stdout) {
  try {
    const { steps } = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}');
    return steps
      .map(
        (/** @type {{ import: string, loaded: string[] }} */ step) =>
          `import ${step.import} loaded: ${step.loaded.join(', ') || 'nothing new'}`,
      )
      .join('\n');
  } catch {
    return undefined;
  }
}
