import { type ChildProcess, spawn } from 'node:child_process';
import { basename } from 'node:path';

/** A Node script run in a process of its own, its stdout read line by line. */
export interface LineProcess {
  readonly child: ChildProcess;
  /** The next line not taken yet; rejects if the process ends before printing it. */
  next(): Promise<string>;
  /** Every line it printed, once it exited with code 0 (rejects otherwise). */
  all(): Promise<string[]>;
}

/**
 * Starts `node script ...args` with its stderr on the test's; `stdin: 'pipe'` lets the test
 * write to it (a go signal, say). Lines are handed out in order, each once, to `next`.
 */
export function startLineProcess(
  script: string,
  args: string[],
  options: { stdin?: 'pipe' | 'ignore' } = {},
): LineProcess {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: [options.stdin ?? 'ignore', 'pipe', 'inherit'],
  });
  const name = basename(script);
  const printed: string[] = [];
  const queue: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      printed.push(line);
      const waiter = waiting.shift();
      if (waiter === undefined) queue.push(line);
      else waiter(line);
    }
  });
  // `close` comes after the last of stdout, so a line printed just before the end is still handed out.
  const closed = new Promise<number | string | null>((resolve) =>
    child.once('close', (code, signal) => resolve(code ?? signal)),
  );
  return {
    child,
    next() {
      const line = queue.shift();
      if (line !== undefined) return Promise.resolve(line);
      const ended = closed.then((code) => {
        throw new Error(`${name} exited (${code}) before printing a line`);
      });
      return Promise.race([new Promise<string>((resolve) => waiting.push(resolve)), ended]);
    },
    async all() {
      const code = await closed;
      if (code !== 0) throw new Error(`${name} exited with ${code}`);
      return printed;
    },
  };
}

/** Kills `child` with SIGKILL, as a crash would, and waits for it to be gone. */
export function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
