import { type ChildProcess, spawn } from 'node:child_process';
import { cli, cliEnvironment } from './run-cli.js';

/** `agent-core studio` as a process: its printed address, its output so far, and how to stop it. */
export interface StudioProcess {
  url: string;
  origin: string;
  child: ChildProcess;
  stderr(): string;
  /** Stops it as Ctrl-C would and resolves its exit code. */
  stop(): Promise<number | null>;
}

/** Starts `agent-core studio` with `args` in `home` and waits for the address it prints. */
export function startStudioCli(
  args: string[],
  options: { home: string; env?: Record<string, string | undefined> },
): Promise<StudioProcess> {
  const child = spawn(process.execPath, [cli, 'studio', ...args], {
    env: cliEnvironment(options.home, options.env),
    cwd: options.home,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const url = /agent-core studio: (\S+)/.exec(stdout)?.[1];
      if (url === undefined) return;
      resolve({
        url,
        origin: new URL(url).origin,
        child,
        stderr: () => stderr,
        stop: () => {
          child.kill('SIGINT');
          return exited;
        },
      });
    });
    void exited.then((code) =>
      reject(new Error(`agent-core studio exited (${code}) before printing its address: ${stderr}`)),
    );
  });
}
