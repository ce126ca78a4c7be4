import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '@agent-core/test-postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { report, soak } from '@agent-core/test-support';

// Many sessions at once in one process, through one SessionManager, each with a tool call: no
// cross-talk, no unhandled rejection, no descriptor or child process left, and the heap back to its
// base once the sessions are removed. The child runs with --expose-gc so it can collect fully.

const child = join(import.meta.dirname, 'test-support', 'load-child.mjs');
const sessions = soak ? 1000 : 250;

interface LoadReport {
  sessions: number;
  crossTalk: string[];
  durationMs: number;
  left: number;
  before: { heap: number; fds: number; children: number };
  after: { heap: number; fds: number; children: number };
  unhandled: string[];
  files: number;
}

function runLoad(kind: 'file' | 'postgres', where: string, folder: string): Promise<LoadReport> {
  const process_ = spawn(process.execPath, ['--expose-gc', child, kind, where, String(sessions), folder], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  process_.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  process_.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    process_.once('error', reject);
    process_.once('exit', (code) => {
      if (code === 0) resolve(JSON.parse(output.trim().split('\n').at(-1) as string) as LoadReport);
      else reject(new Error(`the load process exited with ${code}: ${output}${errors}`));
    });
  });
}

function check(result: LoadReport): void {
  expect(result.crossTalk).toEqual([]);
  expect(result.unhandled).toEqual([]);
  expect(result.left).toBe(0);
  // Every session wrote its own file: the warm-up round's and the measured round's.
  expect(result.files).toBe(2 * sessions);
  expect(result.after.fds).toBe(result.before.fds);
  expect(result.after.children).toBe(0);
  expect(result.after.heap).toBeLessThanOrEqual(result.before.heap * 1.05);
}

function figures(kind: string, result: LoadReport): string {
  const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
  return `${kind}: ${result.sessions} sessions at once in ${Math.round(result.durationMs)} ms; heap ${megabytes(result.before.heap)} MB before, ${megabytes(result.after.heap)} MB after; descriptors ${result.before.fds} / ${result.after.fds}; child processes ${result.after.children}`;
}

let server: TestServer | undefined;
afterAll(async () => {
  await server?.stop();
});

describe(`${sessions} sessions at once through one SessionManager`, { concurrent: true }, () => {
  it('on the file store: no cross-talk, nothing left, the heap back to its base', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'e2e-load-file-'));
    try {
      const result = await runLoad('file', join(folder, 'sessions'), folder);
      report('load', figures('file store', result));
      check(result);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 300_000);

  it('on PostgreSQL: the same', async () => {
    server = await startTestServer();
    const folder = await mkdtemp(join(tmpdir(), 'e2e-load-postgres-'));
    try {
      const result = await runLoad('postgres', `${server.url}#${server.newSchema()}`, folder);
      report('load', figures('PostgreSQL', result));
      check(result);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }, 300_000);
});
