import type { ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  historyProblems,
  newSessionState,
  restoreSession,
  type SessionLogRecord,
  type ToolResultMessage,
} from '@agent-core/core';
import { type LineProcess, startLineProcess } from '@agent-core/test-support/line-process';
import { afterEach, describe, expect, it } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import { useTemporaryRoots } from './test-support/temporary-roots.js';

const fixture = join(import.meta.dirname, '__fixtures__', 'takeover-child.mjs');
const temporaryRoot = useTemporaryRoots('store-file-takeover-');
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    }
  }
});

/** A child of `takeover-child.mjs`, with its stdout as lines and a stdin for its go signal. */
function start(args: string[]): LineProcess {
  const started = startLineProcess(fixture, args, { stdin: 'pipe' });
  children.push(started.child);
  return started;
}

async function rootWith(id: string): Promise<string> {
  const folder = await temporaryRoot();
  await new FileSessionStore({ root: folder }).save(newSessionState({ id }), { expectedVersion: 0 });
  return folder;
}

/** The run id a log record was written by: the journal names each append `<runId>.<n>`. */
const runOf = (record: SessionLogRecord) => record.operationId.slice(0, record.operationId.lastIndexOf('.'));

describe('one session, two processes', () => {
  it('take turns under the lease: every prompt runs once, each run whole and in one piece of the log', async () => {
    const folder = await rootWith('shared');
    const first = start([folder, 'shared', 'one', '30000', 'turns', '3']);
    const second = start([folder, 'shared', 'two', '30000', 'turns', '3']);
    const results: { name: string; reason: string }[] = [];
    for (const process of [first, second, first, second, first, second]) {
      let line = await process.next();
      while (line.startsWith('tool started')) line = await process.next();
      results.push(JSON.parse(line));
    }
    expect(results.every((result) => result.reason === 'completed')).toBe(true);

    const store = new FileSessionStore({ root: folder });
    const records = await store.read('shared');
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    // Each run's records are one block: no run wrote beside another.
    const runs = records.map(runOf).filter((run, index, all) => run !== all[index - 1]);
    expect(new Set(runs).size).toBe(runs.length);
    expect(runs).toHaveLength(6);
    const { state } = await restoreSession(store, 'shared');
    expect(historyProblems(state.messages)).toEqual([]);
    const prompts = state.messages
      .filter((message) => message.role === 'user')
      .map((message) => message.content);
    expect(prompts.sort()).toEqual([
      'prompt 0 from one',
      'prompt 0 from two',
      'prompt 1 from one',
      'prompt 1 from two',
      'prompt 2 from one',
      'prompt 2 from two',
    ]);
    expect(state.status).toBe('idle');
  }, 60_000);

  it('a process frozen past its lease is taken over; woken, its next write is refused and its run ends with SessionLeaseLostError', async () => {
    const staleMs = 1_000;
    const folder = await rootWith('frozen');
    const log = join(folder, 'frozen', 'events.jsonl');
    const frozen = start([folder, 'frozen', 'frozen', String(staleMs), 'hold']);
    expect(await frozen.next()).toMatch(/^tool started /);
    const before = (await readFile(log, 'utf8')).split('\n').filter(Boolean).length;
    frozen.child.kill('SIGSTOP');
    // No heartbeat renews it now: wait until its lease is older than leaseStaleMs.
    const run = JSON.parse(await readFile(join(folder, 'frozen', '.run'), 'utf8')) as { at: string };
    await sleep(Math.max(0, Date.parse(run.at) + staleMs + 100 - Date.now()));

    // Another process loads it (the frozen run is repaired to interrupted) and runs a prompt, holding the lease.
    const taker = start([folder, 'frozen', 'taker', String(staleMs), 'hold']);
    expect(await taker.next()).toMatch(/^tool started /);
    frozen.child.kill('SIGCONT');
    frozen.child.stdin?.write('go\n');
    const woken = JSON.parse(await frozen.next());
    expect(woken).toMatchObject({ name: 'frozen', reason: 'error', code: 'session_lease_lost' });
    taker.child.stdin?.write('go\n');
    const took = JSON.parse(await taker.next());
    expect(took).toMatchObject({ name: 'taker', reason: 'completed' });

    const store = new FileSessionStore({ root: folder });
    const records = await store.read('frozen');
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    // The frozen run's records are the ones it wrote before it froze; after the takeover, only the taker's.
    expect(records.slice(0, before).every((record) => runOf(record) === woken.runId)).toBe(true);
    expect(records.slice(before).every((record) => runOf(record) === took.runId)).toBe(true);
    expect(records.length).toBeGreaterThan(before);
    const { state } = await restoreSession(store, 'frozen');
    expect(historyProblems(state.messages)).toEqual([]);
    const results = state.messages.filter((message) => message.role === 'toolResult') as ToolResultMessage[];
    expect(results.map((result) => result.isError)).toEqual([true, false]);
    expect(String(results[0]?.content)).toContain('outcome is unknown');
    expect(state.status).toBe('idle');
  }, 60_000);
});
