import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { historyProblems, SessionManager, type ToolResultMessage } from '@agent-core/core';
import { sampleEvents, stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import { PostgresSessionLease } from './postgres-session-lease.js';
import { PostgresSessionStore } from './postgres-session-store.js';
import { killed, startWorker } from './test-support/child-process.js';
import { until } from '@agent-core/test-support/until';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';

const { server } = usePostgresServer();

describe('a process killed in the middle of a tool call', () => {
  it('is taken over once its lease lapses: finished tools are not run again, and its late writes are refused', async () => {
    const schema = server.newSchema();
    await migrate({ connectionString: server.url, schema });
    const folder = await mkdtemp(join(tmpdir(), 'store-postgres-crash-'));
    const store = new PostgresSessionStore({ connectionString: server.url, schema, leaseDurationMs: 1000 });
    try {
      const worker = startWorker('crash-worker.mjs', [server.url, schema, folder]);
      const oldToken = await worker.next();
      expect(await worker.next()).toBe('slow call started');
      await killed(worker.child);

      const provider = mock({ chunkSize: 0, turns: () => ({ text: 'picked up' }) });
      const manager = new SessionManager({
        store,
        agentOptions: () => ({ provider, model: 'mock', orchestrator: stepOrchestrator }),
      });
      // While the dead process's lease is live the session loads as it is, running; once it lapses, it is repaired.
      const session = await until(async () => {
        manager.close('killme');
        const loaded = await manager.get('killme');
        return loaded.status === 'interrupted' ? loaded : undefined;
      }, 'the killed process lease to lapse');
      const results = session.messages.filter(
        (message): message is ToolResultMessage => message.role === 'toolResult',
      );
      expect(results.map((result) => [result.toolCallId, result.isError])).toEqual([
        ['w1', false],
        ['w2', true],
      ]);
      expect(String(results[1]?.content)).toContain('outcome is unknown');
      expect(historyProblems(session.messages)).toEqual([]);

      const next = await session.prompt('what now?').result();
      expect(next.terminateReason).toBe('completed');
      // Each tool ran once: the finished one was never run again, the interrupted one never retried silently.
      expect(await readFile(join(folder, 'ran.txt'), 'utf8')).toBe('step 1\nstep 2\n');

      // The killed owner's late writes, made with its old fencing token, are refused and change nothing.
      const before = await store.read('killme');
      const stale = new PostgresSessionLease(
        { renew: async () => true, release: async () => {}, logger: console },
        'killme',
        oldToken,
        0,
      );
      await expect(
        store.append('killme', sampleEvents('late'), { operationId: 'late', lease: stale }),
      ).rejects.toMatchObject({ code: 'session_lease_lost' });
      const loaded = await store.load('killme');
      await expect(
        store.save(loaded, { expectedVersion: loaded.version, lease: stale }),
      ).rejects.toMatchObject({
        code: 'session_lease_lost',
      });
      expect(await store.read('killme')).toEqual(before);
      expect((await store.load('killme')).version).toBe(loaded.version);
    } finally {
      await store.close();
      await rm(folder, { recursive: true, force: true });
    }
  });
});
