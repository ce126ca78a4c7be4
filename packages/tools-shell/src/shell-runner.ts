/** One command for a `ShellRunner` to run, with the limits the shell tool resolved. */
export interface ShellCommand {
  /** The command line, run as `shell -c command`. */
  command: string;
  shell: string;
  /** The working directory (the tool's `cwd`). */
  cwd: string;
  /** The environment the policy allows (see `buildShellEnvironment`). */
  env: Record<string, string>;
  /** Stop the command after this long, and report `stoppedBy: 'timeout'`. */
  timeoutMs: number;
  /** Time between asking a command to stop and killing it. */
  killGraceMs: number;
  /** Cap of each output stream, in bytes; the tool cuts longer text itself. */
  maxOutputBytes: number;
  /** Aborted when the run is aborted: stop the command and report `stoppedBy: 'abort'`. */
  signal: AbortSignal;
}

/** How a command run by a `ShellRunner` ended. */
export interface ShellCommandOutcome {
  /** The exit code, or null when a signal ended the command. */
  exitCode: number | null;
  /** The signal that ended the command, if any (e.g. `SIGTERM`). */
  exitSignal: string | null;
  /** `timeout` or `abort` when the runner stopped the command; undefined when it ended by itself. */
  stoppedBy: 'timeout' | 'abort' | undefined;
  stdout: string;
  /** Runners that see one combined stream (a terminal) put it all in `stdout`. */
  stderr?: string;
}

/**
 * Runs a shell command somewhere else than a local child process (an editor's
 * terminal, a container, a remote host). Contract: resolve once the command
 * and everything it started are gone; honour `timeoutMs` and `signal` by
 * stopping it; reject only when it cannot be started at all.
 */
export type ShellRunner = (command: ShellCommand) => Promise<ShellCommandOutcome>;
