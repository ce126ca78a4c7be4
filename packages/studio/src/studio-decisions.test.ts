import {
  MemorySessionStore,
  SessionCorruptError,
  type SessionStore,
  SessionStorageError,
} from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import type { DecisionAnswer, PromptAnswer, SessionView } from './shared/studio-data.js';
import {
  type NoteLog,
  resumeElsewhere,
  sampleAgentOptions,
  storeSampleSessions,
} from './test-support/sample-sessions.js';
import { signIn } from './test-support/signed-in.js';
import { useTestStudios } from './test-support/test-studio.js';

const testStudio = useTestStudios();

async function studioWithAgent(store: SessionStore, log: NoteLog) {
  const studio = await testStudio({
    store,
    agentOptions: () => sampleAgentOptions(log),
    listRefreshMs: 10,
  });
  return { studio, client: await signIn(studio) };
}

async function viewOf(client: Awaited<ReturnType<typeof signIn>>, id: string): Promise<SessionView> {
  return (await (await client.get(`/api/sessions/${id}`)).json()) as SessionView;
}

/** Reads the session until its status is `status`; the run resumed in the studio ends on its own. */
async function until(
  client: Awaited<ReturnType<typeof signIn>>,
  id: string,
  status: string,
): Promise<SessionView> {
  for (;;) {
    const view = await viewOf(client, id);
    if (view.status === status) return view;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const approve = { decisions: [{ toolCallId: 'call-edit', decision: 'allow' }] };

describe('deciding in the studio', () => {
  it('approves a call: the run resumes in the studio, the tool runs once, and a second decision says what became of it', async () => {
    const store = new MemorySessionStore();
    await storeSampleSessions(store);
    const log: NoteLog = [];
    const { client } = await studioWithAgent(store, log);
    const answer = await client.post('/api/sessions/sample-waiting/decisions', approve);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as DecisionAnswer).outcome).toBe('resumed');
    const done = await until(client, 'sample-waiting', 'idle');
    expect(log).toEqual(['notes.md:one\ntwo\n']);
    expect(done.approvals).toEqual([]);
    expect(done.messages.at(-1)?.blocks[0]).toMatchObject({
      type: 'text',
      text: { text: 'Done: **notes.md** has a second line.' },
    });

    const again = await client.post('/api/sessions/sample-waiting/decisions', approve);
    expect(again.status).toBe(409);
    const second = (await again.json()) as DecisionAnswer;
    expect(second).toMatchObject({
      outcome: 'already_decided',
      decided: [
        { toolCallId: 'call-edit', toolName: 'edit_file', isError: false, result: 'Edited notes.md.' },
      ],
    });
    expect(log).toHaveLength(1);
  });

  it('denies a call with a reason: the tool never runs and the model is told why', async () => {
    const store = new MemorySessionStore();
    await storeSampleSessions(store);
    const log: NoteLog = [];
    const { client } = await studioWithAgent(store, log);
    const answer = await client.post('/api/sessions/sample-waiting/decisions', {
      decisions: [{ toolCallId: 'call-edit', decision: 'deny', reason: 'not that file' }],
    });
    expect(((await answer.json()) as DecisionAnswer).outcome).toBe('resumed');
    const done = await until(client, 'sample-waiting', 'idle');
    expect(log).toEqual([]);
    const result = done.messages.find((message) => message.role === 'toolResult');
    expect(result?.isError).toBe(true);
    expect(JSON.stringify(result?.blocks)).toContain('not that file');
  });

  it('two decisions at once in one studio run the tool once', async () => {
    const store = new MemorySessionStore();
    await storeSampleSessions(store);
    const log: NoteLog = [];
    const { client } = await studioWithAgent(store, log);
    const answers = await Promise.all([
      client.post('/api/sessions/sample-waiting/decisions', approve).then((response) => response.json()),
      client.post('/api/sessions/sample-waiting/decisions', approve).then((response) => response.json()),
    ]);
    await until(client, 'sample-waiting', 'idle');
    const outcomes = (answers as DecisionAnswer[]).map((answer) => answer.outcome).sort();
    // The second waits for the first's run to end, then finds the call decided.
    expect(outcomes).toEqual(['already_decided', 'resumed']);
    expect(log).toHaveLength(1);
  });

  it('a decision that another decider already applied runs nothing here and says what became of the call', async () => {
    const store = new MemorySessionStore();
    await storeSampleSessions(store);
    const log: NoteLog = [];
    const { client } = await studioWithAgent(store, log);
    // The studio reads the session first, as a page would.
    expect((await viewOf(client, 'sample-waiting')).approvals).toHaveLength(1);
    const elsewhere: NoteLog = [];
    await resumeElsewhere(store, elsewhere);
    const answer = (await (
      await client.post('/api/sessions/sample-waiting/decisions', approve)
    ).json()) as DecisionAnswer;
    expect(answer.outcome).toBe('already_decided');
    expect(elsewhere).toHaveLength(1);
    expect(log).toEqual([]);
  });

  it('a studio without an agent shows the calls and decides nothing', async () => {
    const store = new MemorySessionStore();
    await storeSampleSessions(store);
    const studio = await testStudio({ store });
    const client = await signIn(studio);
    const view = await viewOf(client, 'sample-waiting');
    expect(view.canDecide).toBe(false);
    const answer = await client.post('/api/sessions/sample-waiting/decisions', approve);
    expect(answer.status).toBe(409);
    expect((await answer.json()) as DecisionAnswer).toMatchObject({
      outcome: 'refused',
      message: expect.stringContaining('without an agent'),
    });
    expect((await viewOf(client, 'sample-waiting')).status).toBe('await_user');
  });

  it('lists every waiting call in the approvals inbox', async () => {
    const store = new MemorySessionStore();
    await storeSampleSessions(store);
    const { client } = await studioWithAgent(store, []);
    const inbox = (await (await client.get('/api/approvals')).json()) as {
      approvals: { sessionId: string; toolCallId: string }[];
    };
    expect(inbox.approvals.map((approval) => [approval.sessionId, approval.toolCallId])).toEqual([
      ['sample-waiting', 'call-edit'],
    ]);
  });
});

describe('prompting from the studio', () => {
  it('runs a prompt in the studio and streams its records to an open live page', async () => {
    const store = new MemorySessionStore();
    await storeSampleSessions(store);
    const { client } = await studioWithAgent(store, []);
    const before = await viewOf(client, 'sample-answered');
    const live = await client.get(
      `/api/sessions/sample-answered/live?fromSeq=${before.lastSeq}&messages=${before.messages.length}`,
    );
    expect(live.headers.get('content-type')).toContain('text/event-stream');
    const reader = (live.body as ReadableStream<Uint8Array>).getReader();
    const answer = await client.post('/api/sessions/sample-answered/prompt', {
      text: 'Add a line to the notes',
    });
    expect(((await answer.json()) as PromptAnswer).outcome).toBe('started');
    let received = '';
    while (!received.includes('event: changed')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += new TextDecoder().decode(value);
    }
    await reader.cancel();
    expect(received).toContain('event: records');
    expect(received).toContain('Add a line to the notes');
    const after = await until(client, 'sample-answered', 'await_user');
    expect(after.messages.length).toBe(before.messages.length + 2);
    // With a call waiting, another prompt is refused until it is decided.
    const refused = await client.post('/api/sessions/sample-answered/prompt', { text: 'again' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as PromptAnswer).outcome).toBe('refused');
    expect((await client.post('/api/sessions/sample-answered/prompt', { text: '  ' })).status).toBe(400);
  });
});

describe('a store that fails', () => {
  it('shows what could be read of a damaged session, with the store’s error', async () => {
    const inner = new MemorySessionStore();
    const { newSessionState } = await import('@agent-core/core');
    await inner.save(
      newSessionState({ id: 'damaged', messages: [{ role: 'user', content: 'kept in the snapshot' }] }),
      {
        expectedVersion: 0,
      },
    );
    const store: SessionStore = Object.assign(Object.create(inner) as SessionStore, {
      read: async () => {
        throw new SessionCorruptError('events.jsonl', 'line 3 is not a record');
      },
      load: inner.load.bind(inner),
      list: inner.list.bind(inner),
    });
    const { client } = await studioWithAgent(store, []);
    const view = await viewOf(client, 'damaged');
    expect(view.problems).toEqual([
      expect.objectContaining({
        part: 'events log',
        message: expect.stringContaining('line 3 is not a record'),
      }),
    ]);
    expect(view.messages.map((message) => message.blocks[0])).toEqual([
      { type: 'text', text: { text: 'kept in the snapshot', size: 20, cut: false } },
    ]);
  });

  it('answers 503 while the store is away, keeps the last list with its error, and recovers', async () => {
    const inner = new MemorySessionStore();
    await storeSampleSessions(inner);
    let away = false;
    const guard = <Result>(call: () => Promise<Result>) => {
      if (away)
        return Promise.reject(
          new SessionStorageError('postgres://db (schema public)', 'unavailable', 'connection refused'),
        );
      return call();
    };
    const store: SessionStore = {
      load: (id) => guard(() => inner.load(id)),
      save: (state, options) => guard(() => inner.save(state, options)),
      list: (options) => guard(() => inner.list(options)),
      delete: (id) => guard(() => inner.delete(id)),
      append: (id, entries, options) => guard(() => inner.append(id, entries, options)),
      read: (id, options) => guard(() => inner.read(id, options)),
    };
    const { client } = await studioWithAgent(store, []);
    expect((await client.get('/api/sessions')).status).toBe(200);
    away = true;
    const session = await client.get('/api/sessions/sample-answered');
    expect(session.status).toBe(503);
    expect(((await session.json()) as { store: boolean }).store).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await client.get('/api/status');
    let status = (await (await client.get('/api/status')).json()) as { storeError: string | null };
    expect(status.storeError).toContain('connection refused');
    const list = (await (await client.get('/api/sessions')).json()) as {
      sessions: unknown[];
      storeError?: string;
    };
    expect(list.sessions).toHaveLength(3);
    away = false;
    await new Promise((resolve) => setTimeout(resolve, 30));
    await client.get('/api/status');
    await new Promise((resolve) => setTimeout(resolve, 30));
    status = (await (await client.get('/api/status')).json()) as { storeError: string | null };
    expect(status.storeError).toBeNull();
    expect((await client.get('/api/sessions/sample-answered')).status).toBe(200);
  });
});
