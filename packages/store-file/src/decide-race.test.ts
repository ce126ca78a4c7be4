import { execFile, spawn } from 'node:child_process';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { historyProblems, type Provider, SessionManager } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import { useTemporaryRoots } from './test-support/temporary-roots.js';

const child = join(import.meta.dirname, '__fixtures__', 'decide-child.mjs');
const run = promisify(execFile);

interface Decided {
  name: string;
  reason: string;
  code?: string;
  pending: number;
}

const temporaryRoot = useTemporaryRoots('store-file-decide-');

/** Runs a decide child to its end; resolves with the report it prints. */
function decide(root: string, id: string, name: string): Promise<Decided> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, [child, 'decide', root, id, name], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    process_.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    process_.once('error', reject);
    process_.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(output) as Decided);
      else reject(new Error(`decide child ${name} exited with ${code}: ${output}`));
    });
  });
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Polls for the children's ready markers: a child process leaves no event to await. */
async function waitForFiles(paths: string[]): Promise<void> {
  for (;;) {
    const found = await Promise.all(paths.map(exists));
    if (found.every(Boolean)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const unusedProvider: Provider = {
  name: 'unused',
  stream() {
    throw new Error('no model call is expected when a session is only loaded');
  },
};

describe('two processes deciding the same pause at once', () => {
  it('five rounds: each approved call runs exactly once, one process completes and the other is refused', async () => {
    const root = await temporaryRoot();
    const ran = join(root, 'ran.txt');
    for (let round = 0; round < 5; round++) {
      const id = `round-${round}`;
      const paused = await run(process.execPath, [child, 'pause', root, id]);
      expect(JSON.parse(paused.stdout)).toEqual({ reason: 'await_user' });

      const deciding = [decide(root, id, 'left'), decide(root, id, 'right')];
      await waitForFiles([join(root, `ready-${id}-left`), join(root, `ready-${id}-right`)]);
      await writeFile(join(root, `go-${id}`), '');
      const reports = await Promise.all(deciding);

      // Both loaded the same pause and decided its one call.
      expect(reports.map((report) => report.pending)).toEqual([1, 1]);
      const lines = (await readFile(ran, 'utf8')).split('\n').filter((line) => line.startsWith(`${id} `));
      expect(lines).toHaveLength(1);
      const outcomes = reports.map((report) => [report.reason, report.code ?? null]).sort();
      expect(outcomes).toEqual([
        ['completed', null],
        ['error', 'approval_claimed'],
      ]);
      const winner = reports.find((report) => report.reason === 'completed');
      expect(lines[0]).toBe(`${id} ${id}.txt by ${winner?.name}`);

      const store = new FileSessionStore({ root: join(root, 'sessions') });
      const manager = new SessionManager({
        store,
        agentOptions: () => ({ provider: unusedProvider, model: 'none' }),
      });
      const reloaded = await manager.get(id);
      expect(reloaded.status).toBe('idle');
      expect(reloaded.agent.pendingApprovals).toEqual([]);
      expect(historyProblems(reloaded.messages)).toEqual([]);
      expect(reloaded.messages.at(-1)).toMatchObject({
        role: 'assistant',
        content: [{ type: 'text', text: `done: wrote ${id}.txt` }],
      });
      const started = (await store.read(id)).filter((record) => record.event.type === 'tool_started');
      expect(started).toHaveLength(1);
    }
  }, 120_000);
});
