import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const supportFolder = import.meta.dirname;

/** A child process with its output as lines, so a test can wait for one. */
export class Child {
  readonly process: ChildProcess;
  readonly lines: string[] = [];
  errors = '';
  readonly #waiters: (() => void)[] = [];
  readonly exited: Promise<number | null>;

  constructor(script: string, args: string[]) {
    this.process = spawn(process.execPath, [join(supportFolder, script), ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let buffered = '';
    this.process.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      this.lines.push(...parts);
      for (const waiter of this.#waiters.splice(0)) waiter();
    });
    this.process.stderr?.on('data', (chunk: Buffer) => {
      this.errors += chunk.toString('utf8');
    });
    this.exited = new Promise((resolve) =>
      this.process.on('exit', (code) => {
        for (const waiter of this.#waiters.splice(0)) waiter();
        resolve(code);
      }),
    );
  }

  /** The first output line that `matches`, waiting for it; rejects if the process exits first. */
  async line(matches: (line: string) => boolean): Promise<string> {
    for (;;) {
      const found = this.lines.find(matches);
      if (found !== undefined) return found;
      if (this.process.exitCode !== null)
        throw new Error(`the child exited (${this.process.exitCode}) before the line: ${this.errors}`);
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  /** Writes a line to its standard input (a go signal). */
  send(text: string): void {
    this.process.stdin?.write(`${text}\n`);
  }

  async close(): Promise<void> {
    if (this.process.exitCode === null) this.process.kill('SIGTERM');
    await this.exited;
  }
}

/** Starts the studio as a process over `store` and resolves its address. */
export async function startStudioProcess(
  store: string,
  notesFile: string,
): Promise<{ child: Child; url: string; origin: string }> {
  const child = new Child('studio-child.mjs', [store, notesFile]);
  const line = await child.line((text) => text.startsWith('{'));
  const { url, origin } = JSON.parse(line) as { url: string; origin: string };
  return { child, url, origin };
}

/** Runs `studio-peer.mjs` to its end and returns its output lines. */
export async function runPeer(args: string[]): Promise<string[]> {
  const child = new Child('studio-peer.mjs', args);
  const code = await child.exited;
  if (code !== 0) throw new Error(`studio-peer ${args[0]} exited with ${code}: ${child.errors}`);
  return child.lines;
}
