import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/** What a finished run of the binary printed, and its exit code. */
export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Options of `runCli` beyond the arguments. */
export interface RunOptions {
  stdin?: string;
  cwd?: string;
  /** Variables added to the environment (an `undefined` value removes one). */
  env?: Record<string, string | undefined>;
  /** Called with the child as soon as it is spawned, e.g. to kill it. */
  started?: (child: ChildProcess, output: { stdout(): string }) => void;
}

/** Runs the built binary as a user would, without any API key in its environment. */
export function runCli(args: string[], options: RunOptions = {}): Promise<Finished> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  delete env.ANTHROPIC_API_KEY;
  delete env.OPENAI_API_KEY;
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
    options.started?.(child, { stdout: () => stdout });
  });
}
