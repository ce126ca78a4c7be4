import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyProblems, type ToolResultMessage } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from './file-session-store.js';

const fixture = join(import.meta.dirname, '__fixtures__', 'turns-child.mjs');

/** Runs the child until it prints its result, or kills it `afterMs` after it loaded the session. */
function turn(root: string, steps: number, afterMs: number | undefined): Promise<string | undefined> {
  const child: ChildProcess = spawn(process.execPath, [fixture, root, 'k', String(steps)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (afterMs !== undefined && output.startsWith('loaded ') && output.includes('\n'))
        setTimeout(() => child.kill('SIGKILL'), afterMs);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(undefined);
      else if (code === 0) resolve(output.split('\n').at(-2));
      else reject(new Error(`the child exited with ${code}: ${output}`));
    });
  });
}

describe('a session worked on by processes killed at random moments', () => {
  it('never runs a call twice, keeps a valid history, and is finished by the next process', async () => {
    const root = await mkdtemp(join(tmpdir(), 'store-file-turns-'));
    const steps = 12;
    // Kill delays (ms after the load) from a fixed seed; where each kill lands still varies with the machine.
    let seed = 11;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed / 2147483647;
    };
    let kills = 0;
    for (let round = 0; round < 16; round++) {
      if ((await turn(root, steps, Math.floor(random() * 40))) === undefined) kills++;
    }
    const last = await turn(root, steps, undefined);
    expect(JSON.parse(last as string).reason).toMatch(/completed|finished/);
    expect(kills).toBeGreaterThan(0);

    const store = new FileSessionStore({ root: join(root, 'sessions') });
    const stored = await store.load('k');
    const records = await store.read('k');
    const messages = [
      ...stored.messages,
      ...records
        .filter((record) => record.seq > stored.lastSeq && record.event.type === 'message')
        .map((record) => (record.event as { message: ToolResultMessage }).message),
    ];
    expect(historyProblems(messages)).toEqual([]);
    const results = messages.filter((message) => message.role === 'toolResult') as ToolResultMessage[];
    expect(results.map((result) => result.toolCallId)).toEqual(
      Array.from({ length: steps }, (_, index) => `c${index}`),
    );
    // Each call ran at most once: a call a kill interrupted is answered as unknown, never run again.
    const ran = (await readFile(join(root, 'ran.txt'), 'utf8').catch(() => '')).split('\n').filter(Boolean);
    expect(new Set(ran).size).toBe(ran.length);
    for (const result of results) {
      if (!result.isError) expect(ran).toContain(result.toolCallId);
      else expect(String(result.content)).toMatch(/outcome is unknown|not run/);
    }
  }, 60_000);
});
