import { statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ConfigError, defineTool, type Tool } from '@agent-core/core';
import { z } from 'zod';
import { OutputCapture } from './output-capture.js';
import { type CommandOutcome, runCommand } from './run-command.js';
import type { ShellRunner } from './shell-runner.js';
import { buildShellEnvironment } from './shell-environment.js';

/** Options of `shellTool`. */
export interface ShellToolOptions {
  /** Working directory of every command; must exist. Default: `process.cwd()` when `shellTool` is called. */
  cwd?: string;
  /** Longest a command may run, in milliseconds; the model may ask for less, never more. Default 120000. */
  timeoutMs?: number;
  /** Cap of stdout and of stderr each, in bytes; the middle is dropped with a note. Default 65536. */
  maxOutputBytes?: number;
  /** Variables set over the inherited ones; `undefined` removes one. */
  env?: Record<string, string | undefined>;
  /** Pass the agent's whole environment (API keys included) instead of the minimal set. Default false. */
  inheritEnv?: boolean;
  /** The shell run as `shell -c command`. Default `/bin/sh`. */
  shell?: string;
  /** Time between SIGTERM and SIGKILL when a command is stopped, in milliseconds. Default 2000. */
  killGraceMs?: number;
  /**
   * Runs each command somewhere else than a local child process, such as an
   * editor's terminal. Default: a local process group, as described above.
   */
  runner?: ShellRunner;
}

const shellInput = z.object({
  command: z.string().min(1).describe('The command line, run by /bin/sh -c in the working directory.'),
  timeoutMs: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Time limit in milliseconds; capped at the configured one.'),
});

/** The input of the `shell` tool. */
export type ShellInput = z.infer<typeof shellInput>;

// setTimeout fires at once for delays past 2^31 - 1 ms, so larger limits are refused.
const longestDelayMs = 2_147_483_647;

function positiveInteger(name: keyof ShellToolOptions, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0 || value > longestDelayMs) {
    throw new ConfigError(
      `shellTool option '${name}' is ${String(value)}; use a positive whole number up to ${longestDelayMs}.`,
    );
  }
  return value;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function section(name: string, output: OutputCapture): string {
  if (output.totalBytes === 0) return `<${name}></${name}>`;
  const text = output.text();
  return `<${name}>\n${text}${text.endsWith('\n') ? '' : '\n'}</${name}>`;
}

function describeOutput(outcome: CommandOutcome): string {
  return `${section('stdout', outcome.stdout)}\n${section('stderr', outcome.stderr)}`;
}

function describeEnd(outcome: CommandOutcome): string {
  if (outcome.exitSignal !== null) return `killed by signal ${outcome.exitSignal}`;
  if (outcome.exitCode === 0) return 'exit code 0';
  return `exit code ${outcome.exitCode} (the command failed)`;
}

/** Runs a command through a `ShellRunner`, capturing its text as a local run would. */
async function runElsewhere(
  runner: ShellRunner,
  request: Parameters<ShellRunner>[0],
  maxOutputBytes: number,
): Promise<CommandOutcome> {
  const ran = await runner(request);
  const capture = (text: string) => {
    const output = new OutputCapture(maxOutputBytes);
    if (text !== '') output.append(Buffer.from(text, 'utf8'));
    return output;
  };
  return {
    exitCode: ran.exitCode,
    exitSignal: ran.exitSignal as NodeJS.Signals | null,
    stoppedBy: ran.stoppedBy,
    stdout: capture(ran.stdout),
    stderr: capture(ran.stderr ?? ''),
  };
}

/**
 * The `shell` tool (risk `execute`): runs a command with `/bin/sh -c` in its
 * own process group, in `cwd`, with a minimal environment, a time limit and
 * capped output. A non-zero exit is a normal result stating the code; a
 * timeout or an abort kills the whole group and is an error. Throws
 * `ConfigError` for invalid options or a missing `cwd`.
 *
 * @example
 * const agent = new Agent({ provider, model, tools: [shellTool({ cwd: '/srv/project', timeoutMs: 30_000 })] });
 */
export function shellTool(options: ShellToolOptions = {}): Tool<ShellInput> {
  const cwd = resolve(options.cwd ?? process.cwd());
  if (!isDirectory(cwd)) {
    throw new ConfigError(`shellTool option 'cwd' is '${cwd}', which is not an existing directory.`);
  }
  const timeoutMs = positiveInteger('timeoutMs', options.timeoutMs, 120_000);
  const maxOutputBytes = positiveInteger('maxOutputBytes', options.maxOutputBytes, 64 * 1024);
  const killGraceMs = positiveInteger('killGraceMs', options.killGraceMs, 2000);
  const shell = options.shell ?? '/bin/sh';
  const env = options.env === undefined ? undefined : { ...options.env };
  return defineTool({
    name: 'shell',
    description:
      `Run a shell command (/bin/sh -c) in ${cwd} and get its exit code, stdout and stderr. ` +
      `Commands time out after ${timeoutMs} ms (timeoutMs may ask for less); each of stdout and stderr is capped at ${maxOutputBytes} bytes, keeping the start and the end. ` +
      'Standard input is empty, so interactive commands fail; background processes are stopped when the command ends.',
    parameters: shellInput,
    risk: 'execute',
    // Longer than our own limit plus the kill grace, so our timeout (with its clearer message) fires first.
    timeoutMs: Math.min(timeoutMs + 2 * killGraceMs + 1000, longestDelayMs),
    async execute({ command, timeoutMs: requested }, { signal }) {
      signal.throwIfAborted();
      const stats = await stat(cwd).catch(() => undefined);
      if (stats === undefined || !stats.isDirectory()) {
        throw new Error(`The working directory '${cwd}' does not exist any more; the command was not run.`);
      }
      const limit = Math.min(requested ?? timeoutMs, timeoutMs);
      let outcome: CommandOutcome;
      const request = {
        command,
        shell,
        cwd,
        env: buildShellEnvironment({
          cwd,
          inheritEnv: options.inheritEnv === true,
          ...(env ? { env } : {}),
        }),
        timeoutMs: limit,
        killGraceMs,
        maxOutputBytes,
        signal,
      };
      try {
        outcome =
          options.runner === undefined
            ? await runCommand(request)
            : await runElsewhere(options.runner, request, maxOutputBytes);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`Could not start the shell '${shell}': ${reason}`, { cause: error });
      }
      if (outcome.stoppedBy === 'timeout') {
        throw new Error(
          `The command timed out after ${limit} ms and was killed, with every process it started. ` +
            `Output so far:\n${describeOutput(outcome)}`,
        );
      }
      if (outcome.stoppedBy === 'abort') {
        throw new Error(
          `The command was aborted and killed, with every process it started. Output so far:\n${describeOutput(outcome)}`,
        );
      }
      return `${describeEnd(outcome)}\n${describeOutput(outcome)}`;
    },
  });
}
