import { historyProblems } from '@agent-core/core';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';
import { describe, expect, it } from 'vitest';
import { RunQueue } from './run-queue.js';
import { type Executions, noteWorker, storeWith } from './test-support/scripted-agent.js';

const { server } = usePostgresServer();

async function jobsLeft(schema: string): Promise<number> {
  const { rows } = await server.admin.query(`SELECT count(*)::int AS n FROM "${schema}"._private_jobs`);
  return (rows[0] as { n: number }).n;
}

describe('approvals through the queue', () => {
  it('a run that pauses leaves the queue; deciding enqueues the resume, and the tool runs once', async () => {
    const schema = server.newSchema();
    const store = await storeWith('s1');
    const executions: Executions = { notes: [] };
    const worker = noteWorker(server.url, schema, store, executions, { ask: true });
    await worker.start();
    const next = noteWorker(server.url, schema, store, executions, { ask: true });
    const queue = new RunQueue({ connectionString: server.url, schema, store });
    const other = new RunQueue({ connectionString: server.url, schema, store });
    try {
      await queue.enqueue('s1', 'deploy', { operationId: 'op-1' });
      const paused = await queue.wait('op-1');
      expect(paused).toMatchObject({ state: 'finished', terminateReason: 'await_user', pendingApprovals: 1 });
      expect(executions.notes).toEqual([]);
      // No worker holds the paused run: no job is left, nothing runs.
      expect(await jobsLeft(schema)).toBe(0);
      expect(worker.running).toBe(0);
      expect((await store.list()).sessions[0]).toMatchObject({
        status: 'await_user',
        pendingApprovalCount: 1,
      });

      // With no worker running, the decisions wait in the queue.
      await worker.stop();
      // A follow-up enqueued meanwhile waits for the decision instead of skipping the waiting call.
      await queue.enqueue('s1', { type: 'follow_up', message: 'and then' }, { operationId: 'op-2' });

      // Two processes decide the same pause alike: one resume.
      const [first, second] = await Promise.all([queue.decide('s1', 'allow'), other.decide('s1', 'allow')]);
      expect(second.operationId).toBe(first.operationId);
      expect(first.operationId).toMatch(/^decide:s1:\d+$/);
      // A third decides otherwise: refused, nothing enqueued.
      await expect(other.decide('s1', 'deny')).rejects.toMatchObject({ code: 'approval_claimed' });
      await next.start();

      expect(await queue.wait(first.operationId)).toMatchObject({
        type: 'resume',
        state: 'finished',
        terminateReason: 'completed',
        text: 'done: noted deploy',
      });
      expect(await queue.wait('op-2')).toMatchObject({ state: 'finished', terminateReason: 'await_user' });
      expect(executions.notes).toEqual(['deploy']);
      const state = await store.load('s1');
      expect(historyProblems(state.messages, { allowPendingCalls: true })).toEqual([]);
    } finally {
      await other.close();
      await queue.close();
      await worker.stop();
      await next.stop();
    }
  });

  it('refuses decisions that do not fit the pause, and a session with nothing waiting, enqueuing nothing', async () => {
    const schema = server.newSchema();
    const store = await storeWith('s1', 'idle');
    const executions: Executions = { notes: [] };
    const worker = noteWorker(server.url, schema, store, executions, { ask: true });
    await worker.start();
    const queue = new RunQueue({ connectionString: server.url, schema, store });
    try {
      await queue.enqueue('s1', 'deploy', { operationId: 'op-1' });
      await queue.wait('op-1');
      const [waiting] = (await store.read('s1'))
        .map((record) => record.event)
        .flatMap((event) => (event.type === 'run_ended' ? (event.pendingApprovals ?? []) : []));
      expect(waiting).toBeDefined();
      if (waiting === undefined) return;
      await expect(
        queue.decide('s1', [{ toolCallId: 'forged', inputHash: waiting.inputHash, decision: 'allow' }]),
      ).rejects.toMatchObject({ code: 'approval_unknown_call' });
      await expect(
        queue.decide('s1', [{ toolCallId: waiting.toolCallId, inputHash: 'other', decision: 'allow' }]),
      ).rejects.toMatchObject({ code: 'approval_input_mismatch' });
      await expect(queue.decide('idle', 'allow')).rejects.toMatchObject({ code: 'approval_already_decided' });
      await expect(queue.decide('nobody', 'allow')).rejects.toMatchObject({ code: 'session_not_found' });
      const { rows } = await server.admin.query(
        `SELECT count(*)::int AS n FROM "${schema}".agent_core_operations`,
      );
      expect((rows[0] as { n: number }).n).toBe(1);
      const denied = await queue.decide('s1', [
        {
          toolCallId: waiting.toolCallId,
          inputHash: waiting.inputHash,
          decision: 'deny',
          reason: 'not today',
        },
      ]);
      expect(await queue.wait(denied.operationId)).toMatchObject({
        state: 'finished',
        terminateReason: 'completed',
      });
      expect(executions.notes).toEqual([]);
      await expect(queue.decide('s1', 'allow')).rejects.toMatchObject({ code: 'approval_already_decided' });
    } finally {
      await queue.close();
      await worker.stop();
    }
  });
});
