import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolContext } from '@agent-core/core';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type ShellCommand, shellTool } from './index.js';

let directory: string;
beforeEach(async () => {
  directory = await realpath(await mkdtemp(join(tmpdir(), 'agent-core-shell-runner-')));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const context = (signal = new AbortController().signal): ToolContext => ({ signal, toolCallId: 'call-1' });

test('a runner gets the command with the resolved limits, and its outcome reads like a local run', async () => {
  const seen: ShellCommand[] = [];
  const tool = shellTool({
    cwd: directory,
    timeoutMs: 5000,
    maxOutputBytes: 10,
    runner: async (command) => {
      seen.push(command);
      return { exitCode: 2, exitSignal: null, stoppedBy: undefined, stdout: 'one two three four five' };
    },
  });
  const result = await tool.execute({ command: 'ls', timeoutMs: 99_999 }, context());
  expect(seen).toHaveLength(1);
  expect(seen[0]).toMatchObject({
    command: 'ls',
    shell: '/bin/sh',
    cwd: directory,
    timeoutMs: 5000,
    maxOutputBytes: 10,
  });
  expect(seen[0]?.env.PWD).toBe(directory);
  expect(result).toContain('exit code 2 (the command failed)');
  // The tool's own cap applies to what the runner returned.
  expect(result).toContain('bytes dropped');
  expect(result).toContain('<stderr></stderr>');
});

test('a runner that reports a timeout or an abort gives the same errors as a local run', async () => {
  const timedOut = shellTool({
    cwd: directory,
    runner: async () => ({ exitCode: null, exitSignal: 'SIGTERM', stoppedBy: 'timeout', stdout: 'partial' }),
  });
  await expect(timedOut.execute({ command: 'sleep 9' }, context())).rejects.toThrow(/timed out .*partial/s);
  const aborted = shellTool({
    cwd: directory,
    runner: async () => ({ exitCode: null, exitSignal: null, stoppedBy: 'abort', stdout: '' }),
  });
  await expect(aborted.execute({ command: 'sleep 9' }, context())).rejects.toThrow(/aborted and killed/);
});

test('a runner that cannot start the command is a clear error', async () => {
  const tool = shellTool({
    cwd: directory,
    runner: async () => {
      throw new Error('the terminal is gone');
    },
  });
  await expect(tool.execute({ command: 'ls' }, context())).rejects.toThrow(
    "Could not start the shell '/bin/sh': the terminal is gone",
  );
});
