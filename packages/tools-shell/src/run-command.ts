import { type ChildProcess, spawn } from 'node:child_process';
import { OutputCapture } from './output-capture.js';

/** What `runCommand` needs. */
export interface RunCommandOptions {
  command: string;
  shell: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Time between SIGTERM and SIGKILL, and the longest wait for pipes after the shell exits. */
  killGraceMs: number;
  maxOutputBytes: number;
  signal: AbortSignal;
}

/** How a command ended. */
export interface CommandOutcome {
  /** The exit code, or null when a signal ended the shell. */
  exitCode: number | null;
  /** The signal that ended the shell, if any. */
  exitSignal: NodeJS.Signals | null;
  /** `timeout` or `abort` when the command was stopped; undefined when it ended by itself. */
  stoppedBy: 'timeout' | 'abort' | undefined;
  stdout: OutputCapture;
  stderr: OutputCapture;
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals | 0): boolean {
  if (child.pid === undefined) return false;
  try {
    // The negative pid addresses the whole process group that `detached` gave the shell.
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `shell -c command` in its own process group and settles once it and
 * everything it started are gone. When the shell exits, when the timeout
 * passes or when the signal aborts, the whole group gets SIGTERM, then SIGKILL
 * after `killGraceMs`, so no background process outlives the call. Rejects
 * only when the shell cannot be started.
 */
export function runCommand(options: RunCommandOptions): Promise<CommandOutcome> {
  return new Promise((resolve, reject) => {
    const stdout = new OutputCapture(options.maxOutputBytes);
    const stderr = new OutputCapture(options.maxOutputBytes);
    let child: ChildProcess;
    try {
      child = spawn(options.shell, ['-c', options.command], {
        cwd: options.cwd,
        env: options.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (error) {
      reject(error);
      return;
    }
    let stoppedBy: CommandOutcome['stoppedBy'];
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let pipeTimer: NodeJS.Timeout | undefined;

    const endGroup = () => {
      killGroup(child, 'SIGTERM');
      killTimer ??= setTimeout(() => killGroup(child, 'SIGKILL'), options.killGraceMs);
    };
    const stop = (reason: 'timeout' | 'abort') => {
      if (settled || stoppedBy !== undefined) return;
      stoppedBy = reason;
      endGroup();
    };
    const onAbort = () => stop('abort');
    const timeoutTimer = setTimeout(() => stop('timeout'), options.timeoutMs);

    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(pipeTimer);
      options.signal.removeEventListener('abort', onAbort);
      // Keep the SIGKILL timer only while some process of the group is still alive.
      if (killTimer !== undefined && !killGroup(child, 0)) clearTimeout(killTimer);
      if (error !== undefined) reject(error);
      else
        resolve({
          exitCode: exit?.code ?? null,
          exitSignal: exit?.signal ?? null,
          stoppedBy,
          stdout,
          stderr,
        });
    };

    child.stdout?.on('data', (chunk: Buffer) => stdout.append(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.append(chunk));
    child.on('error', (error) => {
      // Only a failed start gets here before exit; later errors (a failed kill) change nothing.
      if (exit === undefined && child.pid === undefined) finish(error);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // The shell is gone: end what it left running, and stop waiting for pipes
      // still held by processes that escaped the group.
      endGroup();
      pipeTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
      }, options.killGraceMs);
    });
    child.on('close', () => finish());

    if (options.signal.aborted) stop('abort');
    else options.signal.addEventListener('abort', onAbort, { once: true });
  });
}
