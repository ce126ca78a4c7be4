import { type ChildProcess, spawnSync } from 'node:child_process';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import {
  newSessionState,
  type Provider,
  restoreSession,
  SessionManager,
  summaryOf,
  type Tool,
} from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type FileOperations, nodeFileOperations } from './file-operations.js';
import { FileSessionStore } from './file-session-store.js';
import { recordingLogger } from './test-support/recording-logger.js';
import { answer, runOf, toolRun, user } from './test-support/session-events.js';
import { useTemporaryRoots } from './test-support/temporary-roots.js';
import { childInSlowCall } from './test-support/running-child.js';

const root = useTemporaryRoots('store-file-follow-');
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A store that counts the reads of snapshots, tail reads of logs and summary writes it makes. */
function counted(folder: string, operations: Partial<FileOperations> = {}) {
  const counts = { snapshotReads: 0, tailReads: 0, summaryWrites: 0 };
  const store = new FileSessionStore({
    root: folder,
    logger: recordingLogger().logger,
    operations: {
      ...operations,
      readFile(path) {
        if (path.endsWith('session.json')) counts.snapshotReads++;
        return nodeFileOperations.readFile(path);
      },
      readFrom(path, start) {
        counts.tailReads++;
        return nodeFileOperations.readFrom(path, start);
      },
      createExclusive(path, data) {
        if (path.includes('.summary.json.')) counts.summaryWrites++;
        return nodeFileOperations.createExclusive(path, data);
      },
    },
  });
  return { store, counts };
}

/** Calls `write` once per prompt (a tool the standard policy asks about), then answers. */
const writer: Provider = {
  name: 'writer',
  async *stream(request) {
    const last = request.messages.at(-1);
    yield {
      type: 'done',
      message: (last?.role === 'user'
        ? {
            role: 'assistant',
            content: [{ type: 'toolCall', id: `w${request.messages.length}`, name: 'write', input: {} }],
            stopReason: 'tool_use',
          }
        : answer('written')) as never,
    };
  },
};

const write: Tool = {
  name: 'write',
  description: 'writes',
  risk: 'write',
  parameters: { type: 'object', properties: {} },
  execute: () => 'done',
} as Tool;

describe('FileSessionStore.list follows every status change', () => {
  it('a run paused for approval is listed await_user with its approval, by another process, from summary.json alone', async () => {
    const folder = await root();
    const manager = new SessionManager({
      store: new FileSessionStore({ root: folder }),
      agentOptions: () => ({
        provider: writer,
        model: 'm',
        tools: [write],
        policy: 'standard',
        orchestrator: stepOrchestrator,
      }),
    });
    const session = await manager.create({ id: 'paused' });
    expect((await session.prompt('write it').result()).terminateReason).toBe('await_user');

    const { store, counts } = counted(folder);
    const listed = (await store.list()).sessions[0];
    expect(listed).toMatchObject({
      id: 'paused',
      status: 'await_user',
      pendingApprovalCount: 1,
      messageCount: 2,
      title: 'write it',
    });
    expect(counts).toMatchObject({ snapshotReads: 0, tailReads: 0 });
    expect(listed).toEqual(summaryOf((await restoreSession(store, 'paused')).state));
  });

  it("a run's steps write no summary: one at the session's creation, one at the run's start, one at its end", async () => {
    const folder = await root();
    const { store, counts } = counted(folder);
    let calls = 0;
    const stepper: Provider = {
      name: 'stepper',
      async *stream() {
        calls++;
        yield {
          type: 'done',
          message: (calls <= 5
            ? {
                role: 'assistant',
                content: [{ type: 'toolCall', id: `c${calls}`, name: 'step', input: {} }],
                stopReason: 'tool_use',
              }
            : answer('done')) as never,
        };
      },
    };
    const step = {
      name: 'step',
      description: 'a step',
      parameters: { type: 'object', properties: {} },
      execute: () => 'ok',
    } as Tool;
    const manager = new SessionManager({
      store,
      agentOptions: () => ({ provider: stepper, model: 'm', tools: [step], orchestrator: stepOrchestrator }),
    });
    const session = await manager.create({ id: 'steps' });
    expect((await session.prompt('go').result()).terminateReason).toBe('completed');
    expect(counts.summaryWrites).toBe(3);
    const other = counted(folder);
    expect((await other.store.list()).sessions[0]).toMatchObject({ status: 'idle', messageCount: 12 });
    expect(other.counts).toMatchObject({ snapshotReads: 0, tailReads: 0 });
  });

  it('a crash between the append of a run’s end and the summary write: list folds in the log after summary.json', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder });
    await store.save(newSessionState({ id: 's' }), { expectedVersion: 0 });
    await store.append('s', toolRun('r1', 'c1'), { operationId: 'r1' });
    const path = join(folder, 's', 'summary.json');
    const afterFirst = await readFile(path, 'utf8');
    const second = runOf('r2', [user('deploy'), answer('asking')], '2026-03-02T00:00:00.000Z');
    const ended = second.at(-1) as { reason: string };
    ended.reason = 'await_user';
    await store.append('s', second, { operationId: 'r2' });
    // As if the process stopped before it wrote this summary.
    await writeFile(path, afterFirst);

    const { store: reader, counts } = counted(folder);
    const listed = (await reader.list()).sessions[0];
    expect(listed).toMatchObject({
      status: 'await_user',
      messageCount: 6,
      updatedAt: '2026-03-02T00:00:00.000Z',
    });
    expect(listed).toEqual(
      summaryOf((await restoreSession(new FileSessionStore({ root: folder }), 's')).state),
    );
    expect(counts).toMatchObject({ snapshotReads: 0, tailReads: 1 });
  });

  it('a summary.json for a longer log than the one there now (cut by hand) is not trusted: snapshot and log are read', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder });
    await store.save(newSessionState({ id: 's' }), { expectedVersion: 0 });
    await store.append('s', toolRun('r1', 'c1'), { operationId: 'r1' });
    await store.append('s', toolRun('r2', 'c2'), { operationId: 'r2' });
    const log = join(folder, 's', 'events.jsonl');
    const firstRun = (await readFile(log, 'utf8')).split('\n').slice(0, 6).join('\n').length + 1;
    await truncate(log, firstRun);
    const { store: reader, counts } = counted(folder);
    expect((await reader.list()).sessions[0]).toMatchObject({ messageCount: 4, title: 'prompt r1' });
    expect(counts.snapshotReads).toBe(1);
  });
});

describe('FileSessionStore.list and the run lease', () => {
  it('running while the process that runs it lives; interrupted once it is killed', async () => {
    const folder = await root();
    const child = await childInSlowCall(folder);
    children.push(child);
    const { store, counts } = counted(join(folder, 'sessions'));
    expect((await store.list()).sessions[0]).toMatchObject({
      id: 'killme',
      status: 'running',
      messageCount: 4,
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    expect((await store.list()).sessions[0]).toMatchObject({
      id: 'killme',
      status: 'interrupted',
      messageCount: 4,
    });
    expect(counts.snapshotReads).toBe(0);
  });

  it('a .run from another host: running while fresh, interrupted once older than leaseStaleMs; an unreadable one, running', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder, leaseStaleMs: 5_000 });
    await store.save(newSessionState({ id: 's' }), { expectedVersion: 0 });
    await store.append('s', [{ type: 'run_started', runId: 'r', at: '2026-03-01T00:00:00.000Z' }], {
      operationId: 'r',
    });
    const run = join(folder, 's', '.run');
    const holder = (at: Date) =>
      JSON.stringify({ pid: 1, host: 'elsewhere', at: at.toISOString(), token: 't' });
    const status = async () => (await store.list()).sessions[0]?.status;
    await writeFile(run, holder(new Date()));
    expect(await status()).toBe('running');
    await writeFile(run, holder(new Date(Date.now() - 6_000)));
    expect(await status()).toBe('interrupted');
    await writeFile(run, '{"pid": 12');
    expect(await status()).toBe('running');
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid as number;
    await writeFile(run, JSON.stringify({ pid: deadPid, host: hostname(), at: new Date().toISOString() }));
    expect(await status()).toBe('interrupted');
  });
});
