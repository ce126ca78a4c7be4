import { calculator } from '@agent-core/test-support';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cassette, sessionCassette } from '@agent-core/cassette';
import { Agent, type SessionLogRecord, SessionManager, type SessionStore } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { mock } from '@agent-core/provider-mock';
import { FileSessionStore } from '@agent-core/store-file';
import { PostgresSessionStore } from '@agent-core/store-postgres';
import { startTestServer, type TestServer } from '@agent-core/test-postgres';
import { afterAll, describe, expect, it } from 'vitest';

// A stored session read as a cassette through the SessionStore contract alone, on the file store and
// on PostgreSQL: replayed as it was, and read up to where its log is damaged.

/** Two prompts, each answered after a calculator call, stored by a SessionManager. */
async function storedSession(store: SessionStore): Promise<string> {
  const provider = mock({
    turns: [
      { toolCalls: [{ name: 'calculator', input: { expression: '15*3' } }] },
      { text: 'It is 45.' },
      { toolCalls: [{ name: 'calculator', input: { expression: '45+5' } }] },
      { text: 'Then 50.' },
    ],
  });
  const manager = new SessionManager({
    store,
    agentOptions: () => ({ provider, model: 'gpt-4o-mini', tools: [calculator], orchestrator: agentic() }),
  });
  const session = await manager.create();
  for (const prompt of ['What is 15*3?', 'Plus 5?']) {
    const result = await session.prompt(prompt).result();
    expect(result.terminateReason).toBe('completed');
    // A snapshot after the first prompt: the second prompt's records come after it in the log.
    if (prompt === 'What is 15*3?') await session.save();
  }
  manager.close(session.id);
  return session.id;
}

/** The stored session replayed by a fresh agent: whether it reproduced. */
async function replay(store: SessionStore, id: string) {
  const { cassette: recorded, messages, damage } = await sessionCassette(store, id);
  const player = await cassette({ cassette: recorded });
  const agent = new Agent({
    provider: player,
    model: 'gpt-4o-mini',
    tools: [calculator],
    orchestrator: agentic(),
  });
  for (const message of messages)
    if ('role' in message && message.role === 'user') await agent.prompt(message).result();
  return { recorded, messages, damage, player, agent };
}

describe('a stored session as a cassette, on the file store', () => {
  it('replays as it was, and after a corrupt log line replays the snapshot and names the line', async () => {
    const root = await mkdtemp(join(tmpdir(), 'e2e-session-cassette-'));
    try {
      const store = new FileSessionStore({ root });
      const id = await storedSession(store);
      const stored = await store.load(id);
      // The snapshot holds the first prompt's exchange; the log after it, the second's.
      expect(stored.messages.length).toBeGreaterThan(0);
      const whole = await replay(store, id);
      expect(whole.damage).toBeUndefined();
      expect(whole.recorded.entries).toHaveLength(4);
      expect(whole.player.misses).toEqual([]);
      expect(whole.agent.messages).toEqual(whole.messages);

      // A line after the snapshot's last record is damaged on disk.
      const log = join(root, id, 'events.jsonl');
      const lines = (await readFile(log, 'utf8')).split('\n');
      const damagedLine = lines.findIndex((line, index) => {
        if (line === '') return false;
        const record = JSON.parse(line) as SessionLogRecord;
        return record.seq > stored.lastSeq && index > 2;
      });
      lines[damagedLine] = '{"seq": broken';
      await writeFile(log, lines.join('\n'));
      const fresh = new FileSessionStore({ root });
      const { messages, damage, cassette: recorded } = await sessionCassette(fresh, id);
      expect(damage?.where).toBe(log);
      expect(damage?.message).toContain(`line ${damagedLine + 1} is not a log record`);
      expect(messages).toEqual(stored.messages);
      expect(recorded.entries).toHaveLength(
        stored.messages.filter((message) => message.role === 'assistant').length,
      );
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe('a stored session as a cassette, on PostgreSQL', () => {
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('replays as it was, and replays up to a record a model would refuse, naming it', async () => {
    server = await startTestServer();
    const schema = server.newSchema();
    const store = new PostgresSessionStore({ connectionString: server.url, schema });
    try {
      const id = await storedSession(store);
      const whole = await replay(store, id);
      expect(whole.damage).toBeUndefined();
      expect(whole.player.misses).toEqual([]);
      expect(whole.player.unusedEntries()).toEqual([]);

      // The second prompt's tool result now answers a call that is not there.
      const records = await store.read(id);
      const results = records.filter(
        (record) => record.event.type === 'message' && record.event.message.role === 'toolResult',
      );
      const damaged = results[1] as SessionLogRecord;
      const event = damaged.event as Extract<SessionLogRecord['event'], { type: 'message' }>;
      await server.admin.query(
        `UPDATE "${schema}".agent_core_session_events SET event = $1 WHERE session_id = $2 AND seq = $3`,
        [JSON.stringify({ ...event, message: { ...event.message, toolCallId: 'gone' } }), id, damaged.seq],
      );
      const { messages, damage, cassette: recorded } = await sessionCassette(store, id);
      expect(damage?.seq).toBe(damaged.seq);
      expect(damage?.where).toBe(`record ${damaged.seq} of the events log of session '${id}'`);
      expect(damage?.message).toContain("the result for 'gone' does not answer the next open tool call");
      // Before it: the first prompt's four messages, the second prompt and its call.
      expect(messages.map((message) => ('role' in message ? message.role : ''))).toEqual([
        'user',
        'assistant',
        'toolResult',
        'assistant',
        'user',
        'assistant',
      ]);
      expect(recorded.entries).toHaveLength(3);
    } finally {
      await store.close();
    }
  }, 120_000);
});
