import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether tmux is installed (CI installs it; see .ci/run). */
export const hasTmux = spawnSync('tmux', ['-V']).status === 0;

/**
 * A program in a real pseudo-terminal: a tmux server of its own (its own
 * socket, so it never touches a user's tmux), one pane of a fixed size.
 * `send` types keys, `screen` reads the pane, `waitFor` polls it.
 */
export class TmuxSession {
  readonly #folder = mkdtempSync(join(tmpdir(), 'agent-core-tmux-'));
  readonly #socket = join(this.#folder, 'socket');

  /**
   * Starts `command` (run by sh, in `cwd`) with exactly `env` in a 120×50 pane; the pane stays
   * when the command ends and shows `EXITED <code>`. A script file carries the environment,
   * which could be longer than a tmux command may be.
   */
  constructor(command: string, env: Record<string, string>, cwd: string) {
    const exports = Object.entries(env)
      .filter(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      .map(([name, value]) => `export ${name}=${shellQuote(value)}`);
    const script = join(this.#folder, 'start.sh');
    writeFileSync(
      script,
      `${exports.join('\n')}\ncd ${shellQuote(cwd)}\n${command}\necho "EXITED $?"\nread held\n`,
    );
    this.#tmux([
      'new-session',
      '-d',
      '-s',
      'test',
      '-x',
      '120',
      '-y',
      '50',
      `env -i sh ${shellQuote(script)}`,
    ]);
  }

  /** Types text (literally), or named keys such as `Enter` and `C-c`. */
  send(text: string, options: { literal?: boolean } = { literal: true }): void {
    this.#tmux(['send-keys', '-t', 'test', ...(options.literal === false ? [] : ['-l']), text]);
  }

  /** Types a line and presses Enter. */
  line(text: string): void {
    this.send(text);
    this.send('Enter', { literal: false });
  }

  /** The pane's text up to its last printed line; with `escapes`, its colour and attribute codes too. */
  screen(escapes = false): string {
    return this.#tmux([
      'capture-pane',
      '-p',
      '-J',
      '-S',
      '-2000',
      ...(escapes ? ['-e'] : []),
      '-t',
      'test',
    ]).trimEnd();
  }

  /** Polls the pane until `pattern` shows (after `from` characters of it), or throws with the screen after `timeoutMs`. */
  async waitFor(pattern: RegExp | string, timeoutMs = 20_000, from = 0): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen().slice(from);
      if (typeof pattern === 'string' ? screen.includes(pattern) : pattern.test(screen)) return screen;
      if (Date.now() > deadline)
        throw new Error(`Timed out waiting for ${String(pattern)} on the screen:\n${screen}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): void {
    spawnSync('tmux', ['-S', this.#socket, 'kill-server']);
    rmSync(this.#folder, { recursive: true, force: true });
  }

  #tmux(args: string[]): string {
    return execFileSync('tmux', ['-S', this.#socket, ...args], { encoding: 'utf8' });
  }
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
