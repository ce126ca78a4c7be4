import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

/** A worker script of test-support run in its own Node process, its stdout read line by line. */
export interface Worker {
  child: ChildProcess;
  /** The next line the worker printed. */
  line(): Promise<string>;
  /** Every line, once the worker exited with code 0 (rejects otherwise). */
  lines(): Promise<string[]>;
}

/** Starts `node test-support/<script> ...args`. Its stderr goes to the test's. */
export function startWorker(script: string, args: string[]): Worker {
  const child = spawn(process.execPath, [join(import.meta.dirname, script), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const all: string[] = [];
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      all.push(line);
      const waiter = waiting.shift();
      if (waiter === undefined) queue.push(line);
      else waiter(line);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    line: () =>
      new Promise((resolve, reject) => {
        const line = queue.shift();
        if (line !== undefined) resolve(line);
        else {
          waiting.push(resolve);
          void exited.then((code) =>
            reject(new Error(`${script} exited with ${code} before printing a line`)),
          );
        }
      }),
    lines: async () => {
      const code = await exited;
      if (code !== 0) throw new Error(`${script} exited with ${code}`);
      return all;
    },
  };
}

/** Kills a worker with SIGKILL, as a crash would, and waits for it to be gone. */
export function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
