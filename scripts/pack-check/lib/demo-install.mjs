// The demo as users get it: `npm i -g` of its tarball into a temporary prefix,
// then `agent-core` run from an unrelated folder, offline.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshFolder, npmInstallOptions, userEnvironment } from './environment.mjs';
import { describeFailure, runCommand } from './run-command.mjs';

/**
 * @param {import('./read-tarball.mjs').Tarball} tarball the app's tarball
 * @param {{ registryArguments: string[], temporaryRoot: string }} context
 * @param {(result: { name: string, ok: boolean, details?: string }) => void} report
 */
export async function checkGlobalInstall(tarball, context, report) {
  const { name, version, bin } = tarball.manifest;
  const commands = typeof bin === 'string' ? [name.split('/').pop()] : Object.keys(bin ?? {});
  const prefix = `global install ${name}`;
  const globalPrefix = freshFolder(context.temporaryRoot, 'global-prefix');
  const installed = await runCommand(
    'npm',
    [
      'install',
      '--global',
      '--prefix',
      globalPrefix,
      ...npmInstallOptions,
      ...context.registryArguments,
      name,
    ],
    { env: userEnvironment(), timeoutMs: 300_000, cwd: context.temporaryRoot },
  );
  report({
    name: `${prefix}: npm i -g --prefix`,
    ok: installed.code === 0,
    details: installed.code === 0 ? undefined : describeFailure('npm i -g', installed),
  });
  if (installed.code !== 0) return;

  // Somewhere else entirely, with a home and config folder of its own and no API key.
  const elsewhere = freshFolder(context.temporaryRoot, 'elsewhere');
  const env = userEnvironment({
    HOME: elsewhere,
    XDG_CONFIG_HOME: join(elsewhere, '.config'),
    XDG_DATA_HOME: join(elsewhere, '.local', 'share'),
    PATH: `${join(globalPrefix, 'bin')}:${userEnvironment().PATH}`,
  });
  for (const command of commands) {
    const shown = await runCommand(command, ['--version'], { cwd: elsewhere, env, timeoutMs: 30_000 });
    const versionOk = shown.code === 0 && shown.stdout.trim() === version;
    report({
      name: `${prefix}: ${command} --version`,
      ok: versionOk,
      details: versionOk ? undefined : describeFailure(`${command} --version (expected ${version})`, shown),
    });
  }
  if (!commands.includes('agent-core')) return;
  // The offline model under each orchestrator the demo ships, then a tool pack that works on the current folder.
  for (const orchestrator of ['agentic', 'react', 'plan-execute']) {
    const chat = await runCommand(
      'agent-core',
      ['chat', '--orchestrator', orchestrator, 'What is 15 * 3 and 10 + 5?'],
      { cwd: elsewhere, env, timeoutMs: 60_000 },
    );
    const chatOk =
      chat.code === 0 && /45/.test(chat.stdout) && /15/.test(chat.stdout) && /offline/i.test(chat.stderr);
    report({
      name: `${prefix}: agent-core chat --orchestrator ${orchestrator}, offline, from another folder`,
      ok: chatOk,
      details: chatOk
        ? undefined
        : describeFailure('agent-core chat (expected 45 and 15, and the offline notice)', chat),
    });
  }
  writeFileSync(join(elsewhere, 'note.txt'), 'remember the milk\n');
  const withFiles = await runCommand(
    'agent-core',
    ['chat', '--tools', 'fs', 'call read_file {"path": "note.txt"}'],
    {
      cwd: elsewhere,
      env,
      timeoutMs: 60_000,
    },
  );
  const filesOk = withFiles.code === 0 && /remember the milk/.test(withFiles.stdout);
  report({
    name: `${prefix}: agent-core chat --tools fs reads the current folder`,
    ok: filesOk,
    details: filesOk
      ? undefined
      : describeFailure('agent-core chat --tools fs (expected the file content)', withFiles),
  });
}
