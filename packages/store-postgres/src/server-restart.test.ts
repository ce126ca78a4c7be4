import { type AgentError, historyProblems, SessionManager, type ToolResultMessage } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { PostgresSessionStore } from './postgres-session-store.js';
import { until } from '@agent-core/test-support/until';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';

// This test stops the server, so it always starts its own, even when AGENT_CORE_PG_URL names one.
const { server } = usePostgresServer({ embedded: true });

describe('the server stopped and started again in the middle of a run', () => {
  it('ends the run with a retryable SessionStorageError, loses nothing stored, and the session resumes', async () => {
    const store = new PostgresSessionStore({
      connectionString: server.url,
      schema: server.newSchema(),
      leaseDurationMs: 1000,
      connectionTimeoutMs: 1000,
    });
    const password = new URL(server.url).password;
    const provider = mock({
      chunkSize: 0,
      turns: (request) =>
        request.messages.at(-1)?.role === 'user' && request.messages.length === 1
          ? { toolCalls: [{ name: 'maintenance', id: 'm1', input: {} }] }
          : { text: `back with ${request.messages.length} messages` },
    });
    let stops = 0;
    const maintenance = {
      name: 'maintenance',
      description: 'the database goes away while this runs',
      parameters: { type: 'object', properties: {} },
      execute: async () => {
        stops++;
        await server.halt();
        return 'done';
      },
    };
    const options = () => ({ provider, model: 'mock', tools: [maintenance], orchestrator: stepOrchestrator });
    try {
      const manager = new SessionManager({ store, agentOptions: options });
      const session = await manager.create({ id: 'outage' });
      const result = await session.prompt('run the maintenance').result();
      expect(result.terminateReason).toBe('error');
      expect(result.error?.code).toBe('session_storage_unavailable');
      expect((result.error as { retryable?: boolean }).retryable).toBe(true);
      expect(result.error?.message).toContain('cannot be reached now');
      expect(result.error?.message).not.toContain(password);
      const down = await store.list().then(
        () => undefined,
        (error: unknown) => error as AgentError,
      );
      expect(down?.code).toBe('session_storage_unavailable');

      await server.resume();
      // Another process (a manager with nothing in memory) picks it up once the stopped run's lease lapsed.
      const later = new SessionManager({ store, agentOptions: options });
      const resumed = await until(async () => {
        later.close('outage');
        const loaded = await later.get('outage').catch(() => undefined);
        return loaded?.status === 'interrupted' ? loaded : undefined;
      }, 'the session to load repaired after the restart');
      // What was stored before the server went away is all there: the prompt and the call, logged before it ran.
      expect(resumed.messages[0]).toEqual({ role: 'user', content: 'run the maintenance' });
      const results = resumed.messages.filter(
        (message): message is ToolResultMessage => message.role === 'toolResult',
      );
      expect(results.map((message) => [message.toolCallId, message.isError])).toEqual([['m1', true]]);
      expect(historyProblems(resumed.messages)).toEqual([]);
      const next = await resumed.prompt('carry on').result();
      expect(next.terminateReason).toBe('completed');
      expect(next.text).toBe('back with 4 messages');
      expect(stops).toBe(1);
      expect(resumed.messages).toHaveLength(5);
      expect((await store.list()).sessions[0]).toMatchObject({
        id: 'outage',
        status: 'idle',
        messageCount: 5,
      });
    } finally {
      await store.close();
    }
  });
});
