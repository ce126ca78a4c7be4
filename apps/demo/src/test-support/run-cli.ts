import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built binary. */
export const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** What a finished run of the binary printed, and its exit code. */
export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Options of `runCli` beyond the arguments. */
export interface RunOptions {
  stdin?: string;
  cwd?: string;
  /** Variables added to the environment (an `undefined` value removes one). */
  env?: Record<string, string | undefined>;
  /** The home folder (and XDG folders under it) of the run; default: this test file's sandbox. */
  home?: string;
  /** Called with the child as soon as it is spawned, e.g. to kill it. */
  started?: (child: ChildProcess, output: { stdout(): string; stderr(): string }) => void;
}

let sandbox: string | undefined;

/** A home folder for one test: config, data and state folders of its own, removed when the worker exits. */
export function makeHome(): string {
  if (sandbox === undefined) {
    sandbox = mkdtempSync(join(tmpdir(), 'agent-core-cli-'));
    const root = sandbox;
    process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  }
  const home = mkdtempSync(join(sandbox, 'home-'));
  for (const folder of ['.config', '.local/share', '.local/state'])
    mkdirSync(join(home, folder), { recursive: true });
  return home;
}

let defaultHome: string | undefined;

/** The environment of a run: no API key, nothing of the CLI's own, XDG folders under `home`. */
export function cliEnvironment(
  home: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env };
  for (const name of Object.keys(env))
    if (name.startsWith('AGENT_CORE_') || name.startsWith('XDG_')) delete env[name];
  delete env.ANTHROPIC_API_KEY;
  delete env.OPENAI_API_KEY;
  delete env.NO_COLOR;
  Object.assign(env, {
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local/share'),
    XDG_STATE_HOME: join(home, '.local/state'),
    ...extra,
  });
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env as Record<string, string>;
}

/** Runs the built binary as a user would, without any API key in its environment. */
export function runCli(args: string[], options: RunOptions = {}): Promise<Finished> {
  const home = options.home ?? (defaultHome ??= makeHome());
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: cliEnvironment(home, options.env),
      cwd: options.cwd ?? home,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    // A CLI may stop reading its input (a prompt over the cap): what it did not read is no error here.
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
    options.started?.(child, { stdout: () => stdout, stderr: () => stderr });
  });
}
