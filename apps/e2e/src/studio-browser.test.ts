/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { createServer, type Server } from 'node:http';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '@agent-core/test-postgres';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, useBrowser } from '@agent-core/test-support/chromium';
import { Child, runPeer, startStudioProcess } from './test-support/studio-processes.js';

// The studio as its users get it: a process over a file store and over PostgreSQL, driven by Debian's
// Chromium through playwright-core; the sessions are made and raced by other processes.

const available = browserAvailable();
const waitMs = 20_000;

/** Lines of the notes file that the edit tool wrote for `id`: how many times it ran for that session. */
async function runsOf(notesFile: string, id: string): Promise<number> {
  return (await readFile(notesFile, 'utf8')).split('\n').filter((line) => line === id).length;
}

/** The session as the studio's API gives it, read from inside the signed-in page. */
async function sessionFromPage(page: Page, id: string): Promise<{ status: string; approvals: unknown[] }> {
  return (await page.evaluate(
    async (sessionId) => (await fetch(`/api/sessions/${sessionId}`)).json(),
    id,
  )) as {
    status: string;
    approvals: unknown[];
  };
}

async function untilStatus(page: Page, id: string, status: string): Promise<void> {
  await page.waitForFunction(
    async ([sessionId, wanted]) =>
      ((await (await fetch(`/api/sessions/${sessionId}`)).json()) as { status: string }).status === wanted,
    [id, status],
    { timeout: waitMs, polling: 100 },
  );
}

// A test waits for the page (each wait up to `waitMs`), not for a fixed time: vitest's 5 s default would
// fail a test on a loaded machine while the page it waits for is still on its way.
describe.skipIf(!available)('the studio in a browser', { timeout: 120_000 }, () => {
  const browser = useBrowser();

  describe.each(['file', 'postgres'] as const)('over the %s store', (kind) => {
    let folder: string;
    let notes: string;
    let store: string;
    let server: TestServer | undefined;
    let studio: Awaited<ReturnType<typeof startStudioProcess>>;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), `e2e-studio-${kind}-`));
      notes = join(folder, 'notes.txt');
      await writeFile(notes, '');
      if (kind === 'postgres') {
        server = await startTestServer({ embedded: true });
        store = `pg:${server.newSchema()}:${server.url}`;
      } else store = `file:${join(folder, 'sessions')}`;
      await runPeer(['seed', store, notes, 'notes-one', 'notes-two', 'notes-race', 'notes-keys']);
      studio = await startStudioProcess(store, notes);
    }, 120_000);

    afterAll(async () => {
      await studio?.child.close();
      await server?.stop();
      await rm(folder, { recursive: true, force: true });
      expect(pageErrors).toEqual([]);
    });

    /** A fresh browser context signed in with the printed address, as a person opening it would be. */
    async function signedIn(hash = ''): Promise<Page> {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      context.setDefaultTimeout(waitMs);
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(studio.url);
      await page.waitForURL(`${studio.origin}/`);
      if (hash !== '') await page.goto(`${studio.origin}/${hash}`);
      return page;
    }

    it('lists the sessions, searches them, and opens one with the keyboard', async () => {
      const page = await signedIn();
      await page.getByRole('link', { name: 'Add the line notes-one' }).waitFor();
      expect(await page.locator('tbody tr').count()).toBe(4);
      const search = page.getByRole('searchbox', { name: 'Search by title or id' });
      await search.fill('NOTES-TWO');
      await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
      await page.getByText('1 sessions match “NOTES-TWO”').waitFor();
      // From the search box, Tab reaches the session's link and Enter opens it.
      await search.focus();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Add the line notes-two');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Add the line notes-two' }).waitFor();
      expect(new URL(page.url()).hash).toBe('#/sessions/notes-two');
      await page.context().close();
    });

    it("shows a session's conversation and its run as a timeline", async () => {
      const page = await signedIn('#/sessions/notes-one');
      await page.getByRole('heading', { level: 1, name: 'Add the line notes-one' }).waitFor();
      // Thinking is folded; the tool call shows its input on request.
      const thinking = page.locator('details.thinking');
      expect(await thinking.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
      await page.getByText('Calls edit_file').click();
      await page
        .locator('details.tool-call pre', { hasText: '"new_string": "one\\nnotes-one\\n"' })
        .waitFor();
      // The run: its model call as a bar, paused for the approval.
      const run = page.locator('section.run').first();
      await run.getByText('waiting for approval').waitFor();
      await run.locator('li.bar-model').waitFor();
      expect(await run.locator('li.mark-approval').textContent()).toContain(
        'paused: 1 call waiting for a decision',
      );
      // The waiting call with its diff.
      await page.locator('.diff-added', { hasText: '+ notes-one' }).waitFor();
      await page.context().close();
    });

    it('decides an approval in the page: the tool runs once, and a second decision says what became of the call', async () => {
      const first = await signedIn('#/approvals');
      const second = await signedIn('#/approvals');
      const card = (page: Page) =>
        page.locator('article.approval', { has: page.getByRole('link', { name: 'Add the line notes-one' }) });
      await card(first).waitFor();
      await card(second).waitFor();
      await card(first).getByText('Why it waits:').waitFor();
      await card(first).getByRole('button', { name: 'Approve' }).click();
      await card(first).getByRole('status').getByText('Decided. The run resumed in the studio').waitFor();
      await untilStatus(first, 'notes-one', 'idle');
      expect(await runsOf(notes, 'notes-one')).toBe(1);

      // The second page still shows the call; deciding it again runs nothing and says it ran.
      await card(second).getByRole('button', { name: 'Approve' }).click();
      const outcome = card(second).getByRole('status');
      await outcome.getByText('already decided elsewhere').waitFor();
      expect(await outcome.textContent()).toContain('it ran — Edited notes.md.');
      expect(await runsOf(notes, 'notes-one')).toBe(1);

      // The session's page shows the answer as markdown and the resumed run on the timeline.
      await first.goto(`${studio.origin}/#/sessions/notes-one`);
      await first.locator('.role-assistant strong', { hasText: 'notes.md' }).waitFor();
      expect(await first.locator('section.run').count()).toBe(2);
      await first.locator('section.run').nth(1).locator('li.bar-tool', { hasText: 'edit_file' }).waitFor();
      await first.context().close();
      await second.context().close();
    });

    it('decides exactly once when the page and another process decide at the same moment', async () => {
      const page = await signedIn('#/approvals');
      const card = page.locator('article.approval', {
        has: page.getByRole('link', { name: 'Add the line notes-race' }),
      });
      await card.waitFor();
      const peer = new Child('studio-peer.mjs', ['decide', store, notes, 'notes-race']);
      await peer.line((line) => line === 'ready');
      peer.send('go');
      await card.getByRole('button', { name: 'Approve' }).click();
      const peerOutcome = JSON.parse(await peer.line((line) => line.startsWith('{'))) as { outcome: string };
      await card.getByRole('status').waitFor();
      const pageOutcome = (await card.getByRole('status').textContent()) ?? '';
      await untilStatus(page, 'notes-race', 'idle');
      expect(await runsOf(notes, 'notes-race')).toBe(1);
      const pageWon = pageOutcome.startsWith('Decided.');
      const peerWon = peerOutcome.outcome === 'ran';
      expect([pageWon, peerWon].filter(Boolean)).toHaveLength(1);
      if (!peerWon)
        expect(['approval_claimed', 'approval_already_decided', 'session_busy']).toContain(
          peerOutcome.outcome,
        );
      await peer.close();
      await page.context().close();
    });

    it('follows a run in another process as its records arrive', async () => {
      const peer = new Child('studio-peer.mjs', ['run', store, notes, 'live-run', '6']);
      await peer.line((line) => line === 'created');
      const page = await signedIn('#/sessions/live-run');
      await page.locator('[data-testid="session-status"]').waitFor();
      peer.send('go');
      // The first tool call shows while the other process's run still goes on.
      await page.locator('li.bar-tool', { hasText: 'look' }).first().waitFor();
      expect(peer.lines.some((line) => line.startsWith('{'))).toBe(false);
      await page.getByText('Looked 6 times.').waitFor();
      await page.locator('[data-testid="session-status"]', { hasText: 'idle' }).waitFor();
      expect(await page.locator('li.bar-tool').count()).toBe(6);
      await peer.close();
      await page.context().close();
    });

    // The guard and the page's controls do not depend on the store: checked once, over the file store.
    it.runIf(kind === 'file')(
      'refuses a browser without the cookie, and a POST from another origin',
      async () => {
        const context = await browser.newContext();
        const stranger = await context.newPage();
        const answer = await stranger.goto(`${studio.origin}/`);
        expect(answer?.status()).toBe(401);
        expect(await stranger.textContent('body')).toContain('Open the address the studio printed');
        expect((await context.request.get(`${studio.origin}/api/sessions`)).status()).toBe(401);
        await context.close();

        // A page of another origin on the same host (so the browser sends the SameSite cookie) posts a decision.
        const page = await signedIn();
        const attacker: Server = createServer((_request, response) => {
          response.setHeader('content-type', 'text/html');
          response.end('<!doctype html><title>elsewhere</title>');
        });
        await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
        const attackerOrigin = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
        try {
          const statuses: number[] = [];
          page.on('response', (response) => {
            if (response.url().includes('/decisions')) statuses.push(response.status());
          });
          const failures: string[] = [];
          page.on('requestfailed', (request) => {
            if (request.url().includes('/decisions')) failures.push(request.failure()?.errorText ?? '');
          });
          await page.goto(`${attackerOrigin}/`);
          await page.evaluate(async (target) => {
            // The answer never reaches this page (CORP and no CORS); the browser's network log has its status.
            await fetch(`${target}/api/sessions/notes-two/decisions`, {
              method: 'POST',
              mode: 'no-cors',
              credentials: 'include',
              headers: { 'content-type': 'text/plain' },
              body: JSON.stringify({ decisions: [{ toolCallId: 'call-edit', decision: 'allow' }] }),
            }).catch(() => undefined);
          }, studio.origin);
          // The studio answered (403: the same host is the same site, so the cookie went with it, and the
          // Origin check refused it), and its Cross-Origin-Resource-Policy kept even that answer from the page.
          expect(statuses).toEqual([]);
          expect(failures).toEqual(['net::ERR_BLOCKED_BY_RESPONSE.NotSameOrigin']);
        } finally {
          await new Promise((resolve) => attacker.close(resolve));
        }
        await page.goto(`${studio.origin}/`);
        expect((await sessionFromPage(page, 'notes-two')).approvals).toHaveLength(1);
        expect(await runsOf(notes, 'notes-two')).toBe(0);
        await page.context().close();
      },
    );

    it.runIf(kind === 'file')('labels every control of its pages', async () => {
      const page = await signedIn();
      for (const hash of ['#/', '#/approvals', '#/sessions/notes-keys']) {
        await page.goto(`${studio.origin}/${hash}`);
        await page.locator('main h1').waitFor();
        await page.waitForLoadState('networkidle').catch(() => {});
        const unlabelled = await page.evaluate(() =>
          [...document.querySelectorAll('input, button, select, textarea, a[href], [tabindex="0"]')]
            .filter((element) => {
              const named =
                (element.getAttribute('aria-label') ?? '') !== '' ||
                ((element as HTMLInputElement).labels?.length ?? 0) > 0 ||
                (element.textContent ?? '').trim() !== '';
              return !named;
            })
            .map((element) => element.outerHTML.slice(0, 120)),
        );
        expect(unlabelled, hash).toEqual([]);
      }
      // The approval's controls have the names a screen reader says.
      await page.goto(`${studio.origin}/#/sessions/notes-keys`);
      await page.getByRole('textbox', { name: 'Reason for a denial (optional)' }).waitFor();
      await page.getByRole('button', { name: 'Deny' }).waitFor();
      await page.context().close();
    });

    it.runIf(kind === 'file')(
      'draws a run of ten thousand records and cuts a 20 MB output with its size',
      async () => {
        await runPeer(['big', store, notes, 'big-run', '2500']);
        const page = await signedIn('#/sessions/big-run');
        await page.getByRole('heading', { level: 1, name: 'slow 2500' }).waitFor({ timeout: 60_000 });
        const run = page.locator('section.run').first();
        await run.getByText('2501 model calls, 2500 tool calls').waitFor();
        // Virtualised: a few dozen rows in the document for five thousand bars.
        expect(await run.locator('li.timeline-row').count()).toBeLessThan(100);
        await page.getByRole('button', { name: /^Show 100 earlier messages/ }).waitFor();
        await page.getByText('Cut: 20.0 MB in all, the first 16.0 kB shown.').waitFor();
        await page.context().close();
      },
      120_000,
    );

    it.runIf(kind === 'postgres')(
      'shows a banner while PostgreSQL is stopped, and recovers when it is back',
      async () => {
        const page = await signedIn();
        await page.getByRole('link', { name: 'Add the line notes-two' }).waitFor();
        await server?.halt();
        try {
          await page
            .getByRole('alert')
            .getByText('The session store cannot be read.')
            .waitFor({ timeout: 30_000 });
          expect(await page.locator('tbody tr').count()).toBeGreaterThan(0);
        } finally {
          await server?.resume();
        }
        await page
          .getByText('The session store cannot be read.')
          .waitFor({ state: 'detached', timeout: 30_000 });
        await page.reload();
        await page.getByRole('link', { name: 'Add the line notes-two' }).waitFor();
        await page.context().close();
      },
      90_000,
    );
  });
});
