import { historyProblems } from '@agent-core/core';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';
import { describe, expect, it } from 'vitest';
import { RunQueue } from './run-queue.js';
import type { RunWorker } from './run-worker.js';
import { type Executions, noteWorker, storeWith } from './test-support/scripted-agent.js';

const { server } = usePostgresServer();

/** Resolves when the worker starts a run. */
function started(worker: RunWorker): Promise<void> {
  return new Promise((resolve) => {
    const stop = worker.subscribe((event) => {
      if (event.type === 'agent_start') {
        stop();
        resolve();
      }
    });
  });
}

describe('stopping a worker', () => {
  it('lets a run in flight finish within the deadline, and takes no new job meanwhile', async () => {
    const schema = server.newSchema();
    const store = await storeWith('s1', 's2');
    const executions: Executions = { notes: [] };
    const worker = noteWorker(server.url, schema, store, executions, { latencyMs: 200 });
    await worker.start();
    const queue = new RunQueue({ connectionString: server.url, schema, store });
    try {
      const running = started(worker);
      await queue.enqueue('s1', 'first', { operationId: 'op-1' });
      await running;
      const stopping = worker.stop({ deadlineMs: 30_000 });
      await queue.enqueue('s2', 'second', { operationId: 'op-2' });
      expect(await stopping).toEqual({ handedOn: 0 });
      expect(await queue.outcome('op-1')).toMatchObject({
        state: 'finished',
        terminateReason: 'completed',
        attempts: 1,
      });
      expect(await queue.outcome('op-2')).toMatchObject({ state: 'queued', attempts: 0 });
      expect(executions.notes).toEqual(['first']);
    } finally {
      await queue.close();
      await worker.stop();
    }
  });

  it('hands a run still going at the deadline on to another worker, which continues it from the session', async () => {
    const schema = server.newSchema();
    const store = await storeWith('s1');
    const executions: Executions = { notes: [] };
    // The first worker's model answers only after a minute: the stop's deadline comes first.
    const slow = noteWorker(server.url, schema, store, executions, { latencyMs: 60_000 });
    await slow.start();
    const queue = new RunQueue({ connectionString: server.url, schema, store });
    const fast = noteWorker(server.url, schema, store, executions);
    try {
      const running = started(slow);
      await queue.enqueue('s1', 'hello', { operationId: 'op-1' });
      await running;
      expect(await slow.stop({ deadlineMs: 50 })).toEqual({ handedOn: 1 });
      expect(await queue.outcome('op-1')).toMatchObject({ state: 'queued', attempts: 1 });
      await fast.start();
      expect(await queue.wait('op-1')).toMatchObject({
        state: 'finished',
        terminateReason: 'completed',
        text: 'done: noted hello',
        attempts: 2,
      });
      expect(executions.notes).toEqual(['hello']);
      const state = await store.load('s1');
      const records = await store.read('s1', { fromSeq: state.lastSeq + 1 });
      const messages = [...state.messages];
      for (const record of records) if (record.event.type === 'message') messages.push(record.event.message);
      expect(historyProblems(messages)).toEqual([]);
      expect(messages.filter((message) => (message as { role: string }).role === 'user')).toHaveLength(1);
      const ends = (await store.read('s1')).flatMap((record) =>
        record.event.type === 'run_ended' ? [record.event.reason] : [],
      );
      expect(ends).toEqual(['aborted', 'completed']);
    } finally {
      await queue.close();
      await fast.stop();
      await slow.stop();
    }
  });
});
