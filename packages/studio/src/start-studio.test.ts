import { request } from 'node:http';
import { MemorySessionStore, type SessionStore } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import type { SessionListPage, SessionView } from './shared/studio-data.js';
import type { StudioServer } from './start-studio.js';
import { storeSampleSessions } from './test-support/sample-sessions.js';
import { signIn } from './test-support/signed-in.js';
import { useTestStudios } from './test-support/test-studio.js';

const testStudio = useTestStudios();

async function studioOver(store: SessionStore, options: { secrets?: string[] } = {}) {
  return testStudio({ store, ...options });
}

/** A GET with a Host header of our choosing (fetch sets its own). */
function getWithHost(studio: StudioServer, path: string, host: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: '127.0.0.1', port: studio.port, path, headers: { host, cookie } },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    sent.on('error', reject);
    sent.end();
  });
}

describe('who may use a studio', () => {
  it('listens on 127.0.0.1 and signs a browser in with the printed token, for an HttpOnly, SameSite=Strict cookie', async () => {
    const studio = await studioOver(new MemorySessionStore());
    expect(studio.host).toBe('127.0.0.1');
    expect(studio.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
    const entry = await fetch(studio.url, { redirect: 'manual' });
    expect(entry.status).toBe(303);
    expect(entry.headers.get('location')).toBe('/');
    const cookie = entry.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^agent_core_studio_${studio.port}=`));
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    // The cookie is not the token: the token can leave the address bar without leaving a copy behind.
    expect(cookie).not.toContain(new URL(studio.url).searchParams.get('token') as string);
  });

  it('refuses every request without the cookie, and a wrong token', async () => {
    const studio = await studioOver(new MemorySessionStore());
    expect((await fetch(`${studio.origin}/api/sessions`)).status).toBe(401);
    expect((await fetch(`${studio.origin}/app.js`)).status).toBe(401);
    const page = await fetch(`${studio.origin}/`);
    expect(page.status).toBe(401);
    expect(await page.text()).toContain('Open the address the studio printed');
    expect((await fetch(`${studio.origin}/?token=not-the-token`, { redirect: 'manual' })).status).toBe(401);
    const forged = await fetch(`${studio.origin}/api/sessions`, {
      headers: { cookie: `agent_core_studio_${studio.port}=forged` },
    });
    expect(forged.status).toBe(401);
  });

  it('answers only its own Host names, so a rebound DNS name gets nothing even with the cookie', async () => {
    const studio = await studioOver(new MemorySessionStore());
    const { cookie } = await signIn(studio);
    expect(await getWithHost(studio, '/api/sessions', `127.0.0.1:${studio.port}`, cookie)).toBe(200);
    expect(await getWithHost(studio, '/api/sessions', `localhost:${studio.port}`, cookie)).toBe(200);
    expect(await getWithHost(studio, '/api/sessions', `attacker.example:${studio.port}`, cookie)).toBe(421);
    expect(await getWithHost(studio, '/api/sessions', `127.0.0.1:${studio.port + 1}`, cookie)).toBe(421);
  });

  it('refuses a change from another origin, without Origin, or without the CSRF token', async () => {
    const studio = await studioOver(new MemorySessionStore());
    const client = await signIn(studio);
    const body = { decisions: [{ toolCallId: 'c', decision: 'allow' }] };
    const crossOrigin = await client.post('/api/sessions/s/decisions', body, {
      origin: 'http://evil.example',
    });
    expect(crossOrigin.status).toBe(403);
    expect(((await crossOrigin.json()) as { error: string }).error).toContain(
      "origin 'http://evil.example' was refused",
    );
    const crossSite = await client.post('/api/sessions/s/decisions', body, {
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
    const noToken = await client.post('/api/sessions/s/decisions', body, { 'x-csrf-token': 'wrong' });
    expect(noToken.status).toBe(403);
    expect(((await noToken.json()) as { error: string }).error).toContain('CSRF');
    // With everything right the request reaches the route (this studio has no agent, so it decides nothing).
    const right = await client.post('/api/sessions/s/decisions', body);
    expect(right.status).not.toBe(403);
  });

  it('sends a Content-Security-Policy with no inline script, and no page caches', async () => {
    const studio = await studioOver(new MemorySessionStore());
    const client = await signIn(studio);
    const page = await client.get('/');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).toContain("frame-ancestors 'none'");
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/app.js"></script>');
    expect(html).not.toMatch(/<script>[^<]/);
    const script = await client.get('/app.js');
    expect(script.headers.get('content-type')).toContain('text/javascript');
  });

  it('refuses a session id that is not valid before any store call', async () => {
    const calls: string[] = [];
    const inner = new MemorySessionStore();
    const store: SessionStore = new Proxy(inner, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (name !== 'list') calls.push(`${String(name)}(${String(args[0])})`);
          return value.apply(target, args);
        };
      },
    });
    const studio = await studioOver(store);
    const client = await signIn(studio);
    for (const path of [
      '/api/sessions/..%2F..%2Fetc/',
      '/api/sessions/a%20b',
      `/api/sessions/${'x'.repeat(129)}`,
      '/api/sessions/a%00b/live',
    ]) {
      const answer = await client.get(path);
      expect([400, 404]).toContain(answer.status);
    }
    const bad = await client.get('/api/sessions/a%20b');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('is not a session id');
    const decision = await client.post('/api/sessions/a%20b/decisions', {
      decisions: [{ toolCallId: 'c', decision: 'allow' }],
    });
    expect(decision.status).toBe(400);
    expect(calls).toEqual([]);
  });
});

describe('what a studio shows', () => {
  it('lists, searches and pages the stored sessions', async () => {
    const store = new MemorySessionStore();
    await storeSampleSessions(store);
    const studio = await studioOver(store);
    const client = await signIn(studio);
    const all = (await (await client.get('/api/sessions')).json()) as SessionListPage;
    expect(all.sessions.map((row) => row.id).sort()).toEqual([
      'sample-answered',
      'sample-failed',
      'sample-waiting',
    ]);
    const waiting = all.sessions.find((row) => row.id === 'sample-waiting');
    expect(waiting).toMatchObject({
      status: 'await_user',
      pendingApprovalCount: 1,
      title: 'Add a line to the notes',
    });
    const found = (await (await client.get('/api/sessions?q=NOTES')).json()) as SessionListPage;
    expect(found.sessions.map((row) => row.id)).toEqual(['sample-waiting']);
    expect(found.matched).toBe(1);
    const byId = (await (await client.get('/api/sessions?q=failed')).json()) as SessionListPage;
    expect(byId.sessions.map((row) => row.id)).toEqual(['sample-failed']);
    const first = (await (await client.get('/api/sessions?limit=2')).json()) as SessionListPage;
    expect(first.sessions).toHaveLength(2);
    const second = (await (
      await client.get(`/api/sessions?limit=2&cursor=${encodeURIComponent(first.nextCursor ?? '')}`)
    ).json()) as SessionListPage;
    expect(second.nextCursor).toBeUndefined();
    expect([...first.sessions, ...second.sessions].map((row) => row.id)).toEqual(
      all.sessions.map((row) => row.id),
    );
    expect((await client.get('/api/sessions?limit=5000')).status).toBe(400);
    expect((await client.get('/api/sessions?cursor=garbage')).status).toBe(400);
  });

  it("shows a session's conversation, its runs' records, and a failed run's error", async () => {
    const store = new MemorySessionStore();
    await storeSampleSessions(store);
    const studio = await studioOver(store);
    const client = await signIn(studio);
    const waiting = (await (await client.get('/api/sessions/sample-waiting')).json()) as SessionView;
    expect(waiting.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(waiting.messages[1]?.blocks.map((block) => block.type)).toEqual(['thinking', 'toolCall']);
    expect(waiting.approvals).toEqual([
      expect.objectContaining({
        toolName: 'edit_file',
        risk: 'write',
        reason: expect.stringContaining('edit_file'),
        diff: {
          path: 'notes.md',
          cut: false,
          lines: [
            { kind: ' ', text: 'one' },
            { kind: '+', text: 'two' },
          ],
        },
      }),
    ]);
    const failed = (await (await client.get('/api/sessions/sample-failed')).json()) as SessionView;
    expect(failed.status).toBe('failed');
    const ended = failed.records.find((record) => record.type === 'run_ended');
    expect(ended).toMatchObject({
      reason: 'error',
      error: expect.stringContaining('the model refused the request'),
    });
    expect((await client.get('/api/sessions/no-such-session')).status).toBe(404);
  });

  it('never sends a secret the session holds, nor the exact values the app names', async () => {
    const store = new MemorySessionStore();
    const state = (await import('@agent-core/core')).newSessionState({
      id: 'secretive',
      messages: [
        {
          role: 'user',
          content: 'my key is sk-ant-api03-SECRETSECRETSECRET and the db is postgres://me:hunter22@db/x',
        },
        {
          role: 'assistant',
          content: [{ type: 'text', text: 'the house password is plain-words-0123' }],
          stopReason: 'end_turn',
        },
      ],
    });
    await store.save(state, { expectedVersion: 0 });
    const studio = await studioOver(store, { secrets: ['plain-words-0123'] });
    const client = await signIn(studio);
    const text = await (await client.get('/api/sessions/secretive')).text();
    const list = await (await client.get('/api/sessions')).text();
    for (const body of [text, list]) {
      expect(body).not.toContain('SECRETSECRETSECRET');
      expect(body).not.toContain('hunter22');
      expect(body).not.toContain('plain-words-0123');
    }
    expect(text).toContain('[REDACTED]');
  });
});
