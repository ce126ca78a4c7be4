import { newSessionState } from '@agent-core/core';
import { sampleEvents } from '@agent-core/core/testing';
import { describe, expect, it } from 'vitest';
import { PostgresSessionStore } from './postgres-session-store.js';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';

const { server } = usePostgresServer();

describe('PostgresSessionStore.prune', () => {
  it('deletes sessions not updated since a date, with their logs, in batches, keeping newer ones and any a process runs', async () => {
    const store = new PostgresSessionStore({ connectionString: server.url, schema: server.newSchema() });
    try {
      for (let day = 1; day <= 9; day++) {
        const state = newSessionState({ id: `day-${day}` });
        state.createdAt = state.updatedAt = `2026-03-0${day}T12:00:00.000Z`;
        await store.save(state, { expectedVersion: 0 });
        await store.append(`day-${day}`, sampleEvents(String(day)).slice(1, 3), { operationId: 'log' });
      }
      const running = await store.lease('day-2');
      const result = await store.prune({ updatedBefore: new Date('2026-03-06T00:00:00.000Z'), batchSize: 2 });
      expect(result).toEqual({ deleted: 4 });
      const left = (await store.list()).sessions.map((summary) => summary.id).sort();
      expect(left).toEqual(['day-2', 'day-6', 'day-7', 'day-8', 'day-9']);
      await expect(store.read('day-1')).rejects.toMatchObject({ code: 'session_not_found' });
      const { rows } = await server.admin.query(
        `SELECT count(*)::int AS events FROM "${store.schema}".agent_core_session_events WHERE session_id = 'day-1'`,
      );
      expect(rows[0]?.events).toBe(0);
      await running.release();
      expect(await store.prune({ updatedBefore: '2026-03-06T00:00:00.000Z' })).toEqual({ deleted: 1 });
    } finally {
      await store.close();
    }
  });

  it('refuses a missing or unreadable date with a clear error', async () => {
    const store = new PostgresSessionStore({ connectionString: server.url, schema: server.newSchema() });
    try {
      await expect(store.prune({} as never)).rejects.toThrow(/prune needs updatedBefore/);
      await expect(store.prune({ updatedBefore: 'last week' })).rejects.toThrow(/prune needs updatedBefore/);
      await expect(store.prune({ updatedBefore: new Date(), batchSize: 0 })).rejects.toThrow(/batchSize/);
    } finally {
      await store.close();
    }
  });
});
