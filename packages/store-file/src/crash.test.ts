import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyProblems, type ToolResultMessage } from '@agent-core/core';
import { killed, type LineProcess, startLineProcess } from '@agent-core/test-support/line-process';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from './file-session-store.js';

const fixtures = join(import.meta.dirname, '__fixtures__');
// The soak run (`pnpm test:soak`) kills each of the four lanes 60 times (240 kills, about a minute);
// the default run 6 times (24 kills, a few seconds).
const soak = process.env.AGENT_CORE_SOAK === '1';
const killsPerLane = soak ? 60 : 6;

function start(script: string, args: string[]): LineProcess {
  return startLineProcess(join(fixtures, script), args);
}

describe('FileSessionStore under SIGKILL', () => {
  it('a session saved in a loop and killed at random moments always loads whole: the old or the new version', async () => {
    const root = await mkdtemp(join(tmpdir(), 'store-file-kill-'));
    // Four sessions, each with its own child killed again and again, side by side.
    const lanes = ['lane-0', 'lane-1', 'lane-2', 'lane-3'];
    const versions = await Promise.all(
      lanes.map((id, index) => killRepeatedly(root, id, killsPerLane, index + 7)),
    );
    for (const version of versions) expect(version).toBeGreaterThan(1);
  }, 240_000);

  it('killed during its second tool call: a fresh process keeps the first result, answers the second with an error, and goes on', async () => {
    const root = await mkdtemp(join(tmpdir(), 'store-file-tool-'));
    const first = start('agent-child.mjs', [root, 'first']);
    expect(await first.next()).toBe('slow call started');
    await killed(first.child);

    const folder = join(root, 'sessions', 'killme');
    const snapshot = JSON.parse(await readFile(join(folder, 'session.json'), 'utf8'));
    // The snapshot predates the run: whatever a fresh process finds of it comes from the events log.
    expect(snapshot.messages).toEqual([]);

    const second = start('agent-child.mjs', [root, 'second']);
    const report = JSON.parse(await second.next());
    await killed(second.child);
    expect(report.loaded.id).toBe('killme');
    expect(report.loaded.status).toBe('interrupted');
    expect(report.loaded.lastSeq).toBeGreaterThan(0);
    expect(report.loaded.problems).toEqual([]);
    const results = (report.loaded.messages as ToolResultMessage[]).filter(
      (message) => message.role === 'toolResult',
    );
    expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
      ['w1', false],
      ['w2', true],
    ]);
    expect(results[0]?.content).toBe('one done');
    expect(String(results[1]?.content)).toContain('outcome is unknown');
    expect(report.next).toEqual({ reason: 'completed', text: 'answered after 2 results', problems: [] });
    // Each tool ran exactly once: the first was never re-run, the interrupted one never silently retried.
    expect(await readFile(join(root, 'ran.txt'), 'utf8')).toBe('step 1\nstep 2\n');
    const stored = await new FileSessionStore({ root: join(root, 'sessions') }).load('killme');
    expect(historyProblems(stored.messages)).toEqual([]);
  }, 30_000);
});

/** Starts a child saving session `id` in a loop, kills it at a random moment, checks what is stored; `rounds` times. */
async function killRepeatedly(root: string, id: string, rounds: number, seed: number): Promise<number> {
  let state = seed;
  const random = () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
  let last = 0;
  for (let round = 0; round < rounds; round++) {
    const { child, next } = start('save-loop.mjs', [root, id]);
    await next();
    // Every fourth round kills only after a save completed, so each lane grows however loaded the machine is.
    if (round % 4 === 3) await next();
    await new Promise((resolve) => setTimeout(resolve, random() * 15));
    await killed(child);
    const store = new FileSessionStore({ root });
    const loaded = await store.load(id);
    expect(loaded.version).toBeGreaterThanOrEqual(last);
    // Every save adds one message: a mix of two versions could not keep these equal.
    expect(loaded.messages).toHaveLength(loaded.version - 1);
    expect(loaded.metadata.count).toBe(loaded.messages.length);
    loaded.messages.forEach((message, index) => {
      expect((message as { content: string }).content.startsWith(`message ${index} `)).toBe(true);
    });
    const records = await store.read(id);
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    last = loaded.version;
  }
  return last;
}
