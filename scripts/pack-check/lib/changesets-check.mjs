// Releases: `changeset version` on a copy of the workspace's manifests and
// changesets must move every public package together (one fixed group), never
// jump to 1.0.0 on its own, keep workspace ranges, and write changelogs.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { freshFolder, userEnvironment } from './environment.mjs';
import { describeFailure, runCommand } from './run-command.mjs';

const require = createRequire(import.meta.url);

/**
 * @typedef {{ dir: string, manifest: Record<string, any> }} WorkspacePackage
 * @typedef {{ name: string, ok: boolean, details?: string }} StepResult
 */

/**
 * @param {string} root the workspace root
 * @param {WorkspacePackage[]} workspacePackages every package of the workspace, private ones too
 * @param {string} temporaryRoot
 * @param {(result: StepResult) => void} report
 */
export async function checkChangesets(root, workspacePackages, temporaryRoot, report) {
  const changesetBin = join(
    dirname(require.resolve('@changesets/cli/package.json', { paths: [root] })),
    'bin.js',
  );
  const pending = readdirSync(join(root, '.changeset')).filter(
    (file) => file.endsWith('.md') && file !== 'README.md',
  );
  const publicNames = workspacePackages
    .filter((item) => item.manifest.private !== true)
    .map((item) => item.manifest.name);
  const current =
    workspacePackages.find((item) => item.manifest.name === '@agent-core/core')?.manifest.version ?? '0.0.0';

  /** @param {string} label @param {(copy: string) => void} prepare @param {string} bump */
  async function scenario(label, prepare, bump) {
    const copy = await workspaceCopy(root, workspacePackages, temporaryRoot);
    prepare(copy);
    const summaries = changesetSummaries(copy);
    const result = await runCommand(process.execPath, [changesetBin, 'version'], {
      cwd: copy,
      env: userEnvironment(),
      timeoutMs: 60_000,
    });
    if (result.code !== 0) {
      report({
        name: `changesets: ${label}`,
        ok: false,
        details: describeFailure('changeset version', result),
      });
      return;
    }
    const expected = nextVersion(current, bump);
    const problems = [];
    for (const item of workspacePackages) {
      const manifest = JSON.parse(readFileSync(join(copy, item.dir, 'package.json'), 'utf8'));
      // Private packages are never published; whether they move does not matter to users.
      if (item.manifest.private === true) continue;
      if (manifest.version !== expected)
        problems.push(`${manifest.name} is ${manifest.version}, expected ${expected}`);
      for (const field of ['dependencies', 'peerDependencies', 'devDependencies']) {
        for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
          if (publicNames.includes(dependency) && range !== item.manifest[field]?.[dependency])
            problems.push(
              `${manifest.name} ${field}.${dependency} changed from ${item.manifest[field]?.[dependency]} to ${range}`,
            );
        }
      }
      const changelogPath = join(copy, item.dir, 'CHANGELOG.md');
      const changelog = existsSync(changelogPath) ? readFileSync(changelogPath, 'utf8') : '';
      if (!changelog.includes(`## ${expected}`))
        problems.push(`${manifest.name} has no CHANGELOG.md entry for ${expected}`);
      for (const summary of summaries.get(manifest.name) ?? []) {
        if (!changelog.includes(summary)) problems.push(`${manifest.name}'s CHANGELOG.md lacks "${summary}"`);
      }
    }
    const left = readdirSync(join(copy, '.changeset')).filter(
      (file) => file.endsWith('.md') && file !== 'README.md',
    );
    if (left.length > 0) problems.push(`changesets left unconsumed: ${left.join(', ')}`);
    report({
      name: `changesets: ${label} move every public package to ${expected}`,
      ok: problems.length === 0,
      details: problems.join('\n') || undefined,
    });
  }

  const clearPending = (/** @type {string} */ copy) => {
    for (const file of pending) rmSync(join(copy, '.changeset', file));
  };
  const addChangeset = (
    /** @type {string} */ copy,
    /** @type {string} */ name,
    /** @type {string} */ bump,
    /** @type {string} */ text,
  ) =>
    writeFileSync(
      join(copy, '.changeset', `pack-check-${bump}.md`),
      `---\n'${name}': ${bump}\n---\n\n${text}\n`,
    );

  if (pending.length > 0) await scenario('the pending changesets', () => {}, highestBump(root, pending));
  await scenario(
    'a patch of provider-mock',
    (copy) => {
      clearPending(copy);
      addChangeset(
        copy,
        '@agent-core/provider-mock',
        'patch',
        'The mock provider records requests in order.',
      );
    },
    'patch',
  );
  await scenario(
    'a minor of core (a peer of every plugin)',
    (copy) => {
      clearPending(copy);
      addChangeset(copy, '@agent-core/core', 'minor', 'Core gains a feature.');
    },
    'minor',
  );
}

/**
 * A git repository with the workspace's release-relevant files as they are now (committed or not):
 * the root manifest, the workspace file, .changeset/ and every package manifest.
 * @param {string} root
 * @param {WorkspacePackage[]} workspacePackages
 * @param {string} temporaryRoot
 */
async function workspaceCopy(root, workspacePackages, temporaryRoot) {
  const copy = freshFolder(temporaryRoot, 'changesets');
  for (const file of ['package.json', 'pnpm-workspace.yaml']) cpSync(join(root, file), join(copy, file));
  cpSync(join(root, '.changeset'), join(copy, '.changeset'), { recursive: true });
  for (const item of workspacePackages) {
    mkdirSync(join(copy, item.dir), { recursive: true });
    cpSync(join(root, item.dir, 'package.json'), join(copy, item.dir, 'package.json'));
  }
  const env = userEnvironment({
    GIT_AUTHOR_NAME: 'pack-check',
    GIT_AUTHOR_EMAIL: 'pack-check@localhost',
    GIT_COMMITTER_NAME: 'pack-check',
    GIT_COMMITTER_EMAIL: 'pack-check@localhost',
  });
  for (const args of [
    ['init', '--quiet', '--initial-branch=main'],
    ['add', '--all'],
    ['commit', '--quiet', '--message', 'copy'],
  ]) {
    const result = await runCommand('git', args, { cwd: copy, env, timeoutMs: 30_000 });
    if (result.code !== 0) throw new Error(describeFailure(`git ${args[0]}`, result));
  }
  return copy;
}

/** @param {string} root @param {string[]} files */
function highestBump(root, files) {
  const order = ['patch', 'minor', 'major'];
  let highest = 'patch';
  for (const file of files) {
    const front = readFileSync(join(root, '.changeset', file), 'utf8').split('---')[1] ?? '';
    for (const match of front.matchAll(/:\s*(patch|minor|major)\s*$/gm)) {
      if (order.indexOf(match[1] ?? 'patch') > order.indexOf(highest)) highest = match[1] ?? 'patch';
    }
  }
  return highest;
}

/** @param {string} version @param {string} bump */
function nextVersion(version, bump) {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (bump === 'major') return major === 0 ? '1.0.0' : `${major + 1}.0.0`;
  if (bump === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/**
 * The first line of each pending changeset's text, by the packages it names.
 * @param {string} copy
 */
function changesetSummaries(copy) {
  /** @type {Map<string, string[]>} */
  const summaries = new Map();
  for (const file of readdirSync(join(copy, '.changeset'))) {
    if (!file.endsWith('.md') || file === 'README.md') continue;
    const [, front = '', body = ''] = readFileSync(join(copy, '.changeset', file), 'utf8').split(/^---$/m);
    const summary = body.trim().split('\n')[0] ?? '';
    for (const match of front.matchAll(/^\s*['"]?([^'":\s]+)['"]?\s*:/gm)) {
      const name = match[1] ?? '';
      summaries.set(name, [...(summaries.get(name) ?? []), summary]);
    }
  }
  return summaries;
}
