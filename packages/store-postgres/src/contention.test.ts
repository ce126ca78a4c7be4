import {
  type AgentMessage,
  historyProblems,
  newSessionState,
  type ToolCallBlock,
  type ToolResultMessage,
} from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { startWorker } from './test-support/child-process.js';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';

const { server } = usePostgresServer();

const text = (message: AgentMessage | undefined) =>
  message?.role === 'assistant'
    ? message.content.map((block) => (block.type === 'text' ? block.text : '')).join('')
    : undefined;

describe('many processes, many sessions, one server', () => {
  it('three processes prompting random sessions lose, duplicate and interleave nothing; every refusal is busy or conflict', async () => {
    const schema = server.newSchema();
    await migrate({ connectionString: server.url, schema });
    const store = new PostgresSessionStore({ connectionString: server.url, schema });
    const sessions = 4;
    try {
      for (let index = 0; index < sessions; index++) {
        await store.save(newSessionState({ id: `s${index}` }), { expectedVersion: 0 });
      }
      const workers = ['w0', 'w1', 'w2'].map((name, index) =>
        startWorker('session-worker.mjs', [
          server.url,
          schema,
          name,
          String(sessions),
          '16',
          String(index + 1),
        ]),
      );
      const attempts = (await Promise.all(workers.map((worker) => worker.all())))
        .flat()
        .map((line) => JSON.parse(line) as { session: string; tag: string; outcome: string });
      expect(attempts).toHaveLength(48);
      const refused = attempts.filter((attempt) => attempt.outcome !== 'completed');
      for (const attempt of refused) expect(['session_busy', 'session_conflict']).toContain(attempt.outcome);

      for (let index = 0; index < sessions; index++) {
        const id = `s${index}`;
        const loaded = await store.load(id);
        const records = await store.read(id);
        // Every run was logged in one consecutive log; the snapshot plus the log is the whole history.
        expect(records.map((record) => record.seq)).toEqual(records.map((_, position) => position + 1));
        const messages = [...loaded.messages];
        for (const record of records) {
          if (record.seq > loaded.lastSeq && record.event.type === 'message')
            messages.push(record.event.message);
        }
        expect(historyProblems(messages)).toEqual([]);
        const completed = attempts.filter(
          (attempt) => attempt.session === id && attempt.outcome === 'completed',
        );
        // Each completed prompt once, in four messages of its own, never another run's in between.
        expect(messages).toHaveLength(completed.length * 4);
        const tags: string[] = [];
        for (let at = 0; at < messages.length; at += 4) {
          const [prompt, call, result, answer] = messages.slice(at, at + 4);
          const tag = prompt?.role === 'user' ? String(prompt.content) : '';
          tags.push(tag);
          const block = call?.role === 'assistant' ? (call.content[0] as ToolCallBlock) : undefined;
          expect(block?.input).toEqual({ tag });
          expect((result as ToolResultMessage).content).toBe(`marked ${tag}`);
          expect(text(answer)).toBe(`done ${tag}`);
        }
        expect(tags.sort()).toEqual(completed.map((attempt) => attempt.tag).sort());
        const listed = (await store.list()).sessions.find((summary) => summary.id === id);
        expect(listed).toMatchObject({ status: 'idle', messageCount: messages.length });
      }
    } finally {
      await store.close();
    }
  });
});
