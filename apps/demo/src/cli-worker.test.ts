import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';
import { describe, expect, it } from 'vitest';
import { cli, cliEnvironment, makeHome, runCli } from './test-support/run-cli.js';
import { browserAvailable, launchBrowser } from '@agent-core/test-support/chromium';
import { type StudioProcess, startStudioCli } from './test-support/studio-process.js';

// `agent-core worker` as the README's quick start runs it: two worker processes on one PostgreSQL
// store, prompts enqueued with `run --queue`, one worker killed with SIGKILL in the middle of a run.
const { server } = usePostgresServer({ startTimeoutMs: 120_000 });

/** A home whose config gives workers a short lease, so a dead worker's run moves on within a second or two. */
function workerHome(): string {
  const home = makeHome();
  mkdirSync(join(home, '.config', 'agent-core'), { recursive: true });
  writeFileSync(
    join(home, '.config', 'agent-core', 'config.toml'),
    `store = "${server.url}"\n\n[worker]\nlease_ms = 1000\ndrain_ms = 10000\nschema = "${server.newSchema()}"\n`,
  );
  return home;
}

interface WorkerProcess {
  child: ChildProcess;
  lines: string[];
  stderr(): string;
  exited: Promise<number | null>;
}

function startWorker(home: string, args: string[] = []): WorkerProcess {
  const child = spawn(process.execPath, [cli, 'worker', ...args], {
    env: cliEnvironment(home),
    cwd: home,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const parts = stdout.split('\n');
    stdout = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, stderr: () => stderr, exited };
}

async function until<Value>(what: string, check: () => Value | undefined | false): Promise<Value> {
  for (let waited = 0; waited < 60_000; waited += 25) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Enqueues `prompt` with the shell tool from `home`; the run pauses for approval (code 3), and its session id comes back. */
async function queuedPause(home: string, prompt: string): Promise<string> {
  const paused = await runCli(['run', '--queue', '--tools', 'shell', prompt], { home, cwd: home });
  expect(paused.code).toBe(3);
  const session = /approve (\S+)/.exec(paused.stderr)?.[1];
  expect(session).toBeDefined();
  return session as string;
}

describe('agent-core worker', { timeout: 120_000 }, () => {
  it('two workers serve queued runs; a run survives kill -9 of the worker running it, its cut call never run again', async () => {
    const home = workerHome();
    const workers = [
      startWorker(home, ['--policy', 'permissive']),
      startWorker(home, ['--policy', 'permissive']),
    ];
    try {
      for (const worker of workers)
        await until('the worker to start', () => worker.stderr().includes(' serves '));
      const ran = join(home, 'ran.txt');
      const prompt = 'call shell {"command":"echo started >> ran.txt; sleep 20"}';
      const enqueued = runCli(['run', '--queue', '--tools', 'shell', prompt], { home, cwd: home });
      const running = await until('a worker to start the run', () =>
        workers.find((worker) => worker.lines.some((line) => line.endsWith(': started'))),
      );
      await until(
        'the command to start',
        () => existsSync(ran) && readFileSync(ran, 'utf8').includes('started'),
      );
      running.child.kill('SIGKILL');
      expect(await running.exited).toBe(null);
      const finished = await enqueued;
      expect(finished.code).toBe(0);
      expect(finished.stderr).toMatch(/operation \S+ completed, 2 attempts/);
      expect(finished.stdout.trim()).not.toBe('');
      // The call the kill cut short was answered "outcome unknown", never run a second time.
      expect(readFileSync(ran, 'utf8').trim().split('\n')).toEqual(['started']);
      const session = /in session (\S+?);/.exec(finished.stderr)?.[1] as string;
      const shown = await runCli(['sessions', 'show', session], { home });
      expect(shown.stdout).toContain('outcome is unknown');
      const survivor = workers.find((worker) => worker !== running) as WorkerProcess;
      expect(
        survivor.lines.some((line) => line.includes(`session ${session}`) && line.endsWith(': completed')),
      ).toBe(true);
    } finally {
      for (const worker of workers) worker.child.kill('SIGTERM');
      await Promise.all(workers.map((worker) => worker.exited));
    }
    for (const worker of workers)
      if (worker.child.signalCode === null) expect(worker.stderr()).toContain('agent-core: worker stopped');
  });

  it('a queued run that needs approval pauses; approve enqueues the resume, and the tool runs once', async () => {
    const home = workerHome();
    const worker = startWorker(home);
    try {
      await until('the worker to start', () => worker.stderr().includes(' serves '));
      const prompt = 'call shell {"command":"echo once >> ran.txt"}';
      const session = await queuedPause(home, prompt);
      const listed = await runCli(['approvals'], { home });
      expect(listed.stdout).toContain(`session ${session}`);
      const approved = await runCli(['approve', session], { home });
      expect(approved.code).toBe(0);
      expect(approved.stderr).toMatch(/decided; operation decide:\S+ resumes session/);
      expect(readFileSync(join(home, 'ran.txt'), 'utf8').trim().split('\n')).toEqual(['once']);
      const again = await runCli(['approve', session], { home });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('no tool call waiting');
      expect(readFileSync(join(home, 'ran.txt'), 'utf8').trim().split('\n')).toEqual(['once']);
    } finally {
      worker.child.kill('SIGTERM');
      expect(await worker.exited).toBe(0);
    }
  });

  it.skipIf(!browserAvailable())(
    'agent-core studio approves a queued run: the page enqueues the resume, a worker (not the studio) runs the tool once, the page follows it',
    async () => {
      const home = workerHome();
      const worker = startWorker(home);
      const browser = await launchBrowser();
      let studio: StudioProcess | undefined;
      try {
        await until('the worker to start', () => worker.stderr().includes(' serves '));
        // The command writes the id of the process that runs it: the worker's, never the studio's.
        const prompt = 'call shell {"command":"echo $PPID >> ran.txt"}';
        const session = await queuedPause(home, prompt);
        studio = await startStudioCli(['--port', '0'], { home });
        const context = await browser.newContext();
        context.setDefaultTimeout(30_000);
        const page = await context.newPage();
        await page.goto(studio.url);
        await page.waitForURL(`${studio.origin}/`);
        await page.goto(`${studio.origin}/#/sessions/${session}`);
        const card = page.locator('article.approval');
        const call = (await card.getAttribute('data-call')) as string;
        await card.getByRole('button', { name: 'Approve' }).click();
        await page.locator('.outcome', { hasText: 'The resume is enqueued as operation decide:' }).waitFor();
        // The worker's run reaches the open page through the store: its shell call in the second run.
        await page.locator('section.run').nth(1).locator('li.bar-tool', { hasText: 'shell' }).waitFor();
        await page.locator('[data-testid="session-status"]', { hasText: /idle/i }).waitFor();
        expect(readFileSync(join(home, 'ran.txt'), 'utf8').trim().split('\n')).toEqual([
          String(worker.child.pid),
        ]);
        await until('the worker to log the resume', () =>
          worker.lines.some((line) => line.includes(`decide:${session}:`) && line.endsWith(': completed')),
        );

        // A second decision of the same pause (a stale page) says what became of the call and runs nothing.
        const csrf = (await page.locator('meta[name="csrf-token"]').getAttribute('content')) as string;
        const second = await page.evaluate(
          async ({ id, toolCallId, csrf }) => {
            const response = await fetch(`/api/sessions/${id}/decisions`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': csrf },
              body: JSON.stringify({ decisions: [{ toolCallId, decision: 'allow' }] }),
            });
            return { status: response.status, body: (await response.json()) as unknown };
          },
          { id: session, toolCallId: call, csrf },
        );
        expect(second).toMatchObject({
          status: 409,
          body: {
            outcome: 'already_decided',
            decided: [{ toolCallId: call, toolName: 'shell', isError: false }],
          },
        });
        expect(readFileSync(join(home, 'ran.txt'), 'utf8').trim().split('\n')).toHaveLength(1);
        await context.close();
      } finally {
        await browser.close();
        const stopped = await studio?.stop();
        worker.child.kill('SIGTERM');
        await worker.exited;
        if (studio !== undefined) expect(stopped).toBe(0);
      }
    },
  );

  it('run --queue is idempotent by --operation-id, and --no-wait returns once enqueued', async () => {
    const home = workerHome();
    const args = [
      'run',
      '--queue',
      '--no-wait',
      '--operation-id',
      'nightly-1',
      '--session',
      'new',
      'What is 2 + 2?',
    ];
    const first = await runCli(args, { home });
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe('nightly-1');
    const session = /in session (\S+?);/.exec(first.stderr)?.[1] as string;
    const again = await runCli(
      ['run', '--queue', '--no-wait', '--operation-id', 'nightly-1', '--session', session, 'What is 2 + 2?'],
      {
        home,
      },
    );
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already enqueued (queued)');
    const other = await runCli(
      ['run', '--queue', '--operation-id', 'nightly-1', '--session', session, 'What is 3 + 3?'],
      {
        home,
      },
    );
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("Operation 'nightly-1' was already enqueued");
    // A worker started later takes it.
    const worker = startWorker(home);
    try {
      const waited = await runCli(
        ['run', '--queue', '--operation-id', 'nightly-1', '--session', session, 'What is 2 + 2?'],
        {
          home,
        },
      );
      expect(waited.code).toBe(0);
      expect(waited.stdout).toContain('4');
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
  });

  it('refuses a store that is not PostgreSQL, and --queue without one, with one clear line', async () => {
    const home = makeHome();
    const worker = await runCli(['worker'], { home });
    expect(worker.code).toBe(2);
    expect(worker.stderr).toContain('postgres://');
    const queued = await runCli(['run', '--queue', 'hello'], { home });
    expect(queued.code).toBe(2);
    expect(queued.stderr).toContain('postgres://');
    const usage = await runCli(['sessions', 'list', '--queue'], { home });
    expect(usage.code).toBe(2);
  });
});
