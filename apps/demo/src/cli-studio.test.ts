import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inputHash, newSessionState, type SessionEvent, silentLogger } from '@agent-core/core';
import { FileSessionStore } from '@agent-core/store-file';
import { startTestServer, type TestServer } from '@agent-core/test-postgres';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makeHome, runCli } from './test-support/run-cli.js';
import { browserAvailable, useBrowser } from '@agent-core/test-support/chromium';
import { type StudioProcess, startStudioCli } from './test-support/studio-process.js';

// `agent-core studio` as its users start it, driven by Debian's Chromium, beside `agent-core run`,
// `approve` and `chat` as processes over the same store. The last test takes the README's screenshot.

const available = browserAvailable();
const screenshot = new URL('../docs/studio.png', import.meta.url);

/** Lines a shell tool appended to `file` under `home`: how many times the approved command ran. */
function lines(home: string, file: string): string[] {
  const path = join(home, file);
  return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
}

/** Runs `agent-core run --no-input` with a shell call and returns the paused session's id. */
async function pausedShell(home: string, command: string, env?: Record<string, string>): Promise<string> {
  const run = await runCli(['run', '--no-input', '--tools', 'shell', `call shell {"command":"${command}"}`], {
    home,
    cwd: home,
    ...(env === undefined ? {} : { env }),
  });
  const session = /session (\S+) waits for approval/.exec(run.stdout)?.[1];
  if (run.code !== 3 || session === undefined) throw new Error(`no pause: ${run.stdout}${run.stderr}`);
  return session;
}

/** Waits until `done()` holds: the effect of a process this test does not wait on. */
async function until(done: () => boolean): Promise<void> {
  for (let tries = 0; !done(); tries++) {
    if (tries > 600) throw new Error('gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function signedIn(browser: Browser, studio: StudioProcess): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 860 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  await page.goto(studio.url);
  await page.waitForURL(`${studio.origin}/`);
  return page;
}

async function untilStatus(page: Page, id: string, status: string): Promise<void> {
  await page.waitForFunction(
    async ([sessionId, wanted]) =>
      ((await (await fetch(`/api/sessions/${sessionId}`)).json()) as { status: string }).status === wanted,
    [id, status],
    { polling: 100 },
  );
}

/**
 * Races a click on Approve in the page against `agent-core approve` as a process, and checks
 * that the command ran once and exactly one of them says it ran it.
 */
async function raceApprove(
  page: Page,
  home: string,
  session: string,
  env?: Record<string, string>,
): Promise<void> {
  const card = page.locator('article.approval', { has: page.locator(`a[href="#/sessions/${session}"]`) });
  await card.getByRole('button', { name: 'Approve' }).waitFor();
  const cliDecision = runCli(['approve', session], {
    home,
    cwd: home,
    ...(env === undefined ? {} : { env }),
  });
  await card.getByRole('button', { name: 'Approve' }).click();
  const [finished] = await Promise.all([cliDecision, card.getByRole('status').waitFor()]);
  const pageSays = (await card.getByRole('status').textContent()) ?? '';
  await untilStatus(page, session, 'idle');
  await until(() => lines(home, 'race.txt').length > 0);
  expect(lines(home, 'race.txt')).toEqual(['raced']);
  const pageRan = pageSays.startsWith('Decided.');
  const cliRan = finished.code === 0;
  expect([pageRan, cliRan].filter(Boolean)).toHaveLength(1);
  // The command that lost found the call decided, the session claimed, or nothing left waiting; it ran nothing.
  if (!cliRan) expect(finished.stderr).toMatch(/already decided|another process|no tool call waiting/i);
}

describe.skipIf(!available)('agent-core studio in a browser', { timeout: 180_000 }, () => {
  const browser = useBrowser();

  it('over the file store: lists, shows and decides once (also raced against agent-core approve), follows another process, refuses a stranger', async () => {
    const home = makeHome();
    const first = await pausedShell(home, 'echo once >> ran.txt');
    const raced = await pausedShell(home, 'echo raced >> race.txt');
    const studio = await startStudioCli(['--port', '0'], { home });
    try {
      expect(studio.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
      const page = await signedIn(browser, studio);
      await page.getByRole('link', { name: 'call shell {"command":"echo once >> ran.txt"}' }).waitFor();

      // A session's page: its run paused on the shell call; approving it runs the command once.
      await page.goto(`${studio.origin}/#/sessions/${first}`);
      await page.locator('section.run').getByText('waiting for approval').waitFor();
      await page.getByRole('button', { name: 'Approve' }).click();
      await untilStatus(page, first, 'idle');
      await until(() => lines(home, 'ran.txt').length > 0);
      expect(lines(home, 'ran.txt')).toEqual(['once']);
      await page.locator('li.bar-tool', { hasText: 'shell' }).waitFor();

      // The same page follows a run that another process makes of the session.
      const prompt = 'call shell {"command":"echo later >> later.txt"}';
      const chat = await runCli(['chat', '--session', first, '--yes', prompt], { home, cwd: home });
      expect(chat.code).toBe(0);
      await page.locator('.role-user', { hasText: 'echo later' }).waitFor();
      await page.locator('section.run').nth(2).locator('li.bar-tool', { hasText: 'shell' }).waitFor();

      // The inbox, decided in the page and by agent-core approve at the same moment.
      await page.goto(`${studio.origin}/#/approvals`);
      await raceApprove(page, home, raced);
      await page.context().close();

      const stranger = await browser.newContext();
      const answer = await (await stranger.newPage()).goto(`${studio.origin}/#/approvals`);
      expect(answer?.status()).toBe(401);
      await stranger.close();
    } finally {
      expect(await studio.stop()).toBe(0);
    }
    expect(studio.stderr()).toContain('only a browser that opens the address above gets in');
  });

  it('over PostgreSQL: decides once, raced against agent-core approve through the database', async () => {
    let server: TestServer | undefined;
    try {
      server = await startTestServer();
      const home = makeHome();
      const env = { AGENT_CORE_STORE: server.url };
      const raced = await pausedShell(home, 'echo raced >> race.txt', env);
      const studio = await startStudioCli(['--port', '0'], { home, env });
      try {
        const page = await signedIn(browser, studio);
        await page.goto(`${studio.origin}/#/approvals`);
        await raceApprove(page, home, raced, env);
        await page.context().close();
      } finally {
        await studio.stop();
      }
      // The database's password never reaches what the studio prints.
      expect(studio.stderr()).not.toContain(new URL(server.url).password || 'no-password');
    } finally {
      await server?.stop();
    }
  });

  it('takes the screenshot the README shows, from a session of known content', async () => {
    const home = makeHome();
    const root = join(home, '.local/share/agent-core/sessions');
    await storeReleaseNotes(new FileSessionStore({ root, logger: silentLogger }));
    const studio = await startStudioCli(['--port', '0'], { home });
    try {
      const page = await signedIn(browser, studio);
      await page.clock.setFixedTime(new Date('2026-03-02T10:07:00.000Z'));
      await page.goto(`${studio.origin}/#/sessions/release-notes`);
      await page.locator('.diff-added', { hasText: 'Sessions searchable by title or id' }).waitFor();
      await page.locator('section.run li.bar-tool').waitFor();
      mkdirSync(new URL('.', screenshot), { recursive: true });
      writeFileSync(screenshot, await page.screenshot({ fullPage: false }));
      await page.context().close();
    } finally {
      await studio.stop();
    }
  });
});

describe('agent-core studio --open', { timeout: 60_000 }, () => {
  it('hands the address to $BROWSER', async () => {
    const home = makeHome();
    const opened = join(home, 'opened.txt');
    const opener = join(home, 'open-browser.sh');
    writeFileSync(opener, `#!/bin/sh\necho "$1" > ${opened}\n`, { mode: 0o755 });
    const studio = await startStudioCli(['--port', '0', '--open'], { home, env: { BROWSER: opener } });
    try {
      await until(() => existsSync(opened) && readFileSync(opened, 'utf8') !== '');
      expect(readFileSync(opened, 'utf8').trim()).toBe(studio.url);
    } finally {
      await studio.stop();
    }
  });

  it('refuses a port in use, with what to do', async () => {
    const home = makeHome();
    const studio = await startStudioCli(['--port', '0'], { home });
    try {
      const port = new URL(studio.url).port;
      const second = await runCli(['studio', '--port', port], { home });
      expect(second.code).toBe(2);
      expect(second.stderr).toContain(`Port ${port} on 127.0.0.1 is in use`);
    } finally {
      await studio.stop();
    }
  });
});

/** A session of fixed ids, times and content: one run read the changelog, then paused on its edit. */
async function storeReleaseNotes(store: FileSessionStore): Promise<void> {
  const state = newSessionState({ id: 'release-notes', metadata: { title: 'Update the changelog for 2.4' } });
  state.createdAt = '2026-03-02T10:00:00.000Z';
  state.updatedAt = state.createdAt;
  await store.save(state, { expectedVersion: 0 });
  const at = (seconds: number) =>
    new Date(Date.parse('2026-03-02T10:00:00.000Z') + seconds * 1000).toISOString();
  const usage = (input: number, output: number, cost: number) => ({
    input,
    output,
    cacheRead: 0,
    cacheWrite: 0,
    cost,
  });
  const edit = {
    path: 'CHANGELOG.md',
    old_string: '## 2.3.0\n',
    new_string:
      '## 2.4.0\n\n- Sessions searchable by title or id\n- Approvals decided from the studio\n\n## 2.3.0\n',
  };
  const entries: SessionEvent[] = [
    { type: 'run_started', runId: 'run-1', at: at(0) },
    {
      type: 'message',
      message: { role: 'user', content: 'Update the changelog for 2.4 and tell me what changed.' },
    },
    {
      type: 'message',
      message: {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Read the changelog first, then add the 2.4 section above 2.3.' },
          { type: 'text', text: 'I will read **CHANGELOG.md** first.' },
          { type: 'toolCall', id: 'call-read', name: 'read_file', input: { path: 'CHANGELOG.md' } },
        ],
        stopReason: 'tool_use',
        usage: usage(1840, 96, 0.0069),
        model: 'claude-sonnet-4-5',
      },
    },
    {
      type: 'tool_started',
      toolCallId: 'call-read',
      toolName: 'read_file',
      input: { path: 'CHANGELOG.md' },
      at: at(2.1),
    },
    {
      type: 'message',
      message: {
        role: 'toolResult',
        toolCallId: 'call-read',
        toolName: 'read_file',
        content: '# Changelog\n\n## 2.3.0\n\n- Faster session list\n',
        isError: false,
      },
    },
    {
      type: 'tool_finished',
      toolCallId: 'call-read',
      toolName: 'read_file',
      isError: false,
      durationMs: 140,
    },
    {
      type: 'message',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Adding the **2.4.0** section above 2.3.0.' },
          { type: 'toolCall', id: 'call-edit', name: 'edit_file', input: edit },
        ],
        stopReason: 'tool_use',
        usage: usage(2210, 148, 0.0088),
        model: 'claude-sonnet-4-5',
      },
    },
    {
      type: 'run_ended',
      runId: 'run-1',
      reason: 'await_user',
      usage: usage(4050, 244, 0.0157),
      at: at(5.6),
      pendingApprovals: [
        {
          toolCallId: 'call-edit',
          toolName: 'edit_file',
          input: edit,
          inputHash: inputHash(edit),
          risk: 'write',
          reason: "policy 'standard' says 'ask' for risk 'write'",
          agentPath: [],
          requestedAt: at(5.6),
        },
      ],
    },
  ];
  await store.append('release-notes', entries, { operationId: 'screenshot' });
}
