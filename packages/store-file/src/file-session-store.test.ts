import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newSessionState, SessionManager, silentLogger } from '@agent-core/core';
import { sampleEvents, sampleSessionState, sessionStoreConformance } from '@agent-core/core/testing';
import { describe, expect, it, test } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import { nodeFileOperations } from './file-operations.js';
import { recordingLogger } from './test-support/recording-logger.js';

const root = () => mkdtemp(join(tmpdir(), 'store-file-'));

sessionStoreConformance(
  // Silent: the checks of damaged data make list() warn, as it should, about the sessions they damaged.
  async () => new FileSessionStore({ root: await root(), logger: silentLogger }),
  { test, describe },
  {
    writeRawSnapshot: (store, id, json) =>
      writeFile(join((store as FileSessionStore).root, id, 'session.json'), json),
  },
);

function failing(code: string) {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

describe('FileSessionStore: files and bad input', () => {
  it('keeps one folder per session with session.json, summary.json and events.jsonl', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder });
    await store.save(sampleSessionState('one'), { expectedVersion: 0 });
    await store.append('one', sampleEvents('a'), { operationId: 'op' });
    expect((await readdir(join(folder, 'one'))).sort()).toEqual([
      'events.jsonl',
      'session.json',
      'summary.json',
    ]);
    const lines = (await readFile(join(folder, 'one', 'events.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.map((line) => JSON.parse(line).seq)).toEqual([1, 2, 3, 4]);
  });

  it('a session.json edited into invalid JSON is a typed error with the path; list skips it with a warning', async () => {
    const folder = await root();
    const { warnings, logger } = recordingLogger();
    const store = new FileSessionStore({ root: folder, logger });
    await store.save(sampleSessionState('good'), { expectedVersion: 0 });
    await store.save(sampleSessionState('broken'), { expectedVersion: 0 });
    await store.save(sampleSessionState('wrong'), { expectedVersion: 0 });
    const path = join(folder, 'broken', 'session.json');
    await writeFile(path, '{"id": "broken", ');
    const wrong = JSON.parse(await readFile(join(folder, 'wrong', 'session.json'), 'utf8'));
    delete wrong.messages;
    await writeFile(join(folder, 'wrong', 'session.json'), JSON.stringify(wrong));
    await expect(store.load('broken')).rejects.toMatchObject({ code: 'session_corrupt', source: path });
    await expect(store.load('wrong')).rejects.toMatchObject({ code: 'session_corrupt', field: 'messages' });
    const page = await store.list();
    expect(page.sessions.map((summary) => summary.id)).toEqual(['good']);
    expect(warnings.map((warning) => warning.fields?.path)).toEqual([
      join(folder, 'broken'),
      join(folder, 'wrong'),
    ]);
    // A stale or blind save never overwrites what it cannot read.
    await expect(store.save(sampleSessionState('broken'), { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'session_corrupt',
    });
    expect(await readFile(path, 'utf8')).toBe('{"id": "broken", ');
  });

  it('a torn last line of events.jsonl is moved aside, every complete line kept, and appends go on', async () => {
    const folder = await root();
    const { warnings, logger } = recordingLogger();
    await new FileSessionStore({ root: folder }).save(newSessionState({ id: 'torn' }), {
      expectedVersion: 0,
    });
    const writer = new FileSessionStore({ root: folder });
    await writer.append('torn', sampleEvents('a'), { operationId: 'op-a' });
    const log = join(folder, 'torn', 'events.jsonl');
    const complete = await readFile(log, 'utf8');
    await writeFile(log, `${complete}{"seq":5,"operationId":"op-b","event":{"type":"mess`);
    const store = new FileSessionStore({ root: folder, logger });
    const records = await store.read('torn');
    expect(records.map((record) => record.seq)).toEqual([1, 2, 3, 4]);
    expect(await readFile(log, 'utf8')).toBe(complete);
    const names = await readdir(join(folder, 'torn'));
    const aside = names.find((name) => name.startsWith('events.jsonl.corrupt-'));
    expect(await readFile(join(folder, 'torn', aside as string), 'utf8')).toBe(
      '{"seq":5,"operationId":"op-b","event":{"type":"mess',
    );
    expect(warnings).toHaveLength(1);
    expect(await store.append('torn', sampleEvents('b'), { operationId: 'op-b' })).toEqual({
      firstSeq: 5,
      lastSeq: 8,
    });
  });

  it('a full disk is a typed error with the path, and the stored session survives', async () => {
    const folder = await root();
    const healthy = new FileSessionStore({ root: folder });
    await healthy.save(sampleSessionState('full'), { expectedVersion: 0 });
    const full = new FileSessionStore({
      root: folder,
      operations: {
        writeNew: () => Promise.reject(failing('ENOSPC')),
        append: () => Promise.reject(failing('ENOSPC')),
      },
    });
    await expect(
      full.save({ ...sampleSessionState('full'), messages: [] }, { expectedVersion: 1 }),
    ).rejects.toMatchObject({
      code: 'session_storage_full',
      path: join(folder, 'full', 'session.json'),
    });
    await expect(full.append('full', sampleEvents('x'), { operationId: 'op' })).rejects.toMatchObject({
      code: 'session_storage_full',
      path: join(folder, 'full', 'events.jsonl'),
    });
    expect((await healthy.load('full')).messages).toEqual(sampleSessionState('full').messages);
    expect((await readdir(join(folder, 'full'))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('a read-only folder is a typed error naming it; other sessions keep being served', async () => {
    const folder = await root();
    await mkdir(folder, { recursive: true });
    const store = new FileSessionStore({
      root: folder,
      operations: {
        mkdir: (path) =>
          path.endsWith('locked') ? Promise.reject(failing('EROFS')) : nodeFileOperations.mkdir(path),
      },
    });
    await expect(store.save(newSessionState({ id: 'locked' }), { expectedVersion: 0 })).rejects.toMatchObject(
      {
        code: 'session_storage_read_only',
        path: join(folder, 'locked'),
      },
    );
    await store.save(newSessionState({ id: 'open' }), { expectedVersion: 0 });
    expect((await store.list()).sessions.map((summary) => summary.id)).toEqual(['open']);
  });

  it('an id with ../ is refused and nothing is written outside the root', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: join(folder, 'inner') });
    await expect(
      store.save(newSessionState({ id: '../outside' }), { expectedVersion: 0 }),
    ).rejects.toMatchObject({
      code: 'invalid_session_id',
    });
    expect(await readdir(folder)).toEqual([]);
  });

  it('runs SessionManager sessions across store instances, as two processes would', async () => {
    const folder = await root();
    const provider = {
      name: 'echo',
      async *stream() {
        yield {
          type: 'done' as const,
          message: {
            role: 'assistant' as const,
            content: [{ type: 'text' as const, text: 'ok' }],
            stopReason: 'end_turn' as const,
          },
        };
      },
    };
    const orchestrator = {
      name: 'once',
      async run(context: { nextTurn(): unknown; callModel(): Promise<unknown> }) {
        context.nextTurn();
        await context.callModel();
        return { reason: 'completed' as const };
      },
    };
    const make = () =>
      new SessionManager({
        store: new FileSessionStore({ root: folder }),
        agentOptions: () => ({ provider, model: 'echo', orchestrator: orchestrator as never }),
      });
    const session = await make().create({ id: 'shared' });
    await session.prompt('hello').result();
    const again = await make().get('shared');
    expect(again.messages).toEqual(session.messages);
    expect(again.lastSeq).toBe(session.lastSeq);
  });
});
