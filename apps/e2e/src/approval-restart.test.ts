import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  type AgentMessage,
  historyProblems,
  type ModelRequest,
  type PendingApproval,
} from '@agent-core/core';
import { afterEach, describe, expect, it } from 'vitest';

const child = fileURLToPath(new URL('./test-support/approval-child.mjs', import.meta.url));
const run = promisify(execFile);

interface ChildReport {
  requests: ModelRequest[];
  terminateReason: string;
  pendingApprovals: PendingApproval[];
  messages: AgentMessage[];
}

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

async function runChild(
  mode: 'pause' | 'resume' | 'straight',
  toolExecution: string,
  directory: string,
  countFile: string,
): Promise<ChildReport> {
  const reportFile = join(directory, `${mode}.json`);
  await run(process.execPath, [
    child,
    mode,
    toolExecution,
    join(directory, 'session.json'),
    countFile,
    reportFile,
  ]);
  return JSON.parse(await readFile(reportFile, 'utf8')) as ChildReport;
}

async function countedRuns(countFile: string): Promise<string[]> {
  try {
    return (await readFile(countFile, 'utf8')).split('\n').filter((line) => line !== '');
  } catch {
    return [];
  }
}

describe('approval across a restart', () => {
  it.each(['sequential', 'parallel'])(
    '%s: one process pauses with two pending calls, a fresh one approves one and denies the other',
    async (toolExecution) => {
      const directory = await mkdtemp(join(tmpdir(), 'agent-core-approval-'));
      directories.push(directory);
      const pausedCount = join(directory, 'paused-runs.txt');
      const straightCount = join(directory, 'straight-runs.txt');

      const paused = await runChild('pause', toolExecution, directory, pausedCount);
      expect(paused.terminateReason).toBe('await_user');
      expect(paused.pendingApprovals.map((approval) => [approval.toolCallId, approval.toolName])).toEqual([
        ['call_a', 'write_file'],
        ['call_b', 'write_file'],
      ]);
      expect(await countedRuns(pausedCount)).toEqual([]);

      const resumed = await runChild('resume', toolExecution, directory, pausedCount);
      expect(resumed.terminateReason).toBe('completed');
      // The approved tool ran exactly once, the denied one never.
      expect(await countedRuns(pausedCount)).toEqual(['write_file a.txt']);
      expect(historyProblems(resumed.messages)).toEqual([]);

      const straight = await runChild('straight', toolExecution, directory, straightCount);
      expect(straight.terminateReason).toBe('completed');
      expect(straight.requests).toHaveLength(2);
      expect(await countedRuns(straightCount)).toEqual(['write_file a.txt']);
      // What the model was sent, across both processes, equals an uninterrupted run with the same decisions.
      expect([...paused.requests, ...resumed.requests]).toEqual(straight.requests);
      expect(resumed.messages).toEqual(straight.messages);
    },
  );
});
