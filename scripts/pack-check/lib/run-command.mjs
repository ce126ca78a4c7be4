// Runs a command without blocking the event loop (the local registry and the
// model servers live in this process), with a time limit, and collects its output.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * @typedef {{ code: number | null, signal: string | null, stdout: string, stderr: string, timedOut: boolean }} CommandResult
 * @typedef {{ cwd?: string, env?: NodeJS.ProcessEnv, timeoutMs?: number, input?: string }} CommandOptions
 */

/**
 * Runs `command` with `args` and resolves with its exit status and output; never rejects for a
 * failing command. A command past `timeoutMs` is killed with its whole process group.
 * @param {string} command
 * @param {readonly string[]} args
 * @param {CommandOptions} [options]
 * @returns {Promise<CommandResult>}
 */
export function runCommand(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      // Its own process group, so a timeout can end npm and everything it started.
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    // A command that exits before reading its input closes the pipe: that is its answer, not a crash of the check.
    child.stdin.on('error', () => {});
    child.stdin.end(options.input ?? '');
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, options.timeoutMs ?? 300_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, stdout, stderr: `${stderr}${error.message}\n`, timedOut });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** @param {number | undefined} pid */
function killGroup(pid) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * A short description of a failed command for a report: the command, how it ended, and the
 * last lines of its output.
 * @param {string} what
 * @param {CommandResult} result
 */
export function describeFailure(what, result) {
  const ending = result.timedOut
    ? 'timed out'
    : result.signal
      ? `was killed by ${result.signal}`
      : `exited with ${result.code}`;
  const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-40).join('\n');
  return `${what} ${ending}${output === '' ? '' : `:\n${output}`}`;
}

/**
 * Builds the named workspace packages (and what they depend on) with turbo from the
 * workspace at `root`; resolves with turbo's result, never rejects.
 * @param {string} root
 * @param {readonly string[]} names
 * @returns {Promise<CommandResult>}
 */
export function buildPackages(root, names) {
  const bin = join(root, 'node_modules', '.bin');
  return runCommand(
    join(bin, 'turbo'),
    ['run', 'build', '--continue', '--output-logs=errors-only', ...names.map((name) => `--filter=${name}`)],
    {
      cwd: root,
      env: {
        ...process.env,
        // turbo looks for pnpm on PATH, which `node scripts/...` alone does not provide.
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        TURBO_TELEMETRY_DISABLED: '1',
        DO_NOT_TRACK: '1',
      },
      timeoutMs: 600_000,
    },
  );
}

/**
 * Calls `task` for each item with at most `limit` running at once; resolves with the results in order.
 * @template T, R
 * @param {readonly T[]} items
 * @param {number} limit
 * @param {(item: T, index: number) => Promise<R>} task
 * @returns {Promise<R[]>}
 */
export async function mapWithLimit(items, limit, task) {
  /** @type {R[]} */
  const results = new Array(items.length);
  let next = 0;
  async function worker() {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(/** @type {T} */ (items[index]), index);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
