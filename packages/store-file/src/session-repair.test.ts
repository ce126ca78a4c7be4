import { readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  historyProblems,
  newSessionState,
  type Provider,
  restoreSession,
  SessionBusyError,
  SessionCorruptError,
  SessionManager,
} from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { describe, expect, it } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import { recordingLogger } from './test-support/recording-logger.js';
import { answer, toolRun, user } from './test-support/session-events.js';
import { useTemporaryRoots } from './test-support/temporary-roots.js';
import { snapshotFirstRun } from './test-support/snapshot-first-run.js';

const root = useTemporaryRoots('store-file-repair-');

const quiet = () => recordingLogger().logger;

/** A model that answers every request with text, so a repaired session can be prompted again. */
const echo: Provider = {
  name: 'echo',
  async *stream(request) {
    yield {
      type: 'done',
      message: answer(`reply to ${request.messages.length} messages`) as never,
    };
  },
};

function manager(folder: string): SessionManager {
  return new SessionManager({
    store: new FileSessionStore({ root: folder, logger: quiet() }),
    agentOptions: () => ({ provider: echo, model: 'echo', orchestrator: stepOrchestrator }),
  });
}

/** Session `s`: a snapshot of nothing, then two runs with a tool call each in the log (records 1 to 12). */
async function twoRuns(folder: string): Promise<string> {
  const store = new FileSessionStore({ root: folder });
  await store.save(newSessionState({ id: 's' }), { expectedVersion: 0 });
  await store.append('s', toolRun('r1', 'c1'), { operationId: 'r1' });
  await store.append('s', toolRun('r2', 'c2'), { operationId: 'r2' });
  return join(folder, 's', 'events.jsonl');
}

async function lines(path: string): Promise<string[]> {
  return (await readFile(path, 'utf8')).split('\n').slice(0, -1);
}

async function backups(folder: string): Promise<string[]> {
  return (await readdir(join(folder, 's'))).filter((name) => name.startsWith('repair-')).sort();
}

describe('FileSessionStore.repair', () => {
  it('a corrupt line in the second run: backs both files up, cuts the log before it, and the session loads and runs again', async () => {
    const folder = await root();
    const log = await twoRuns(folder);
    const original = await lines(log);
    // Line 9 is the second run's tool call.
    const damaged = original.map((line, index) => (index === 8 ? '{"seq":9,"oper' : line));
    await writeFile(log, damaged.map((line) => `${line}\n`).join(''));
    const snapshotBefore = await readFile(join(folder, 's', 'session.json'));
    const logBefore = await readFile(log);

    const report = await new FileSessionStore({ root: folder, logger: quiet() }).repair('s');
    expect(report).toMatchObject({
      sessionId: 's',
      changed: true,
      keptRecords: 8,
      droppedRecords: 3,
      droppedLines: 1,
      lastSeq: 8,
      snapshotRewritten: false,
    });
    // JSON.parse words its message differently across Node releases.
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatch(
      /^events\.jsonl: line 9 is not a log record \(not JSON: .+\); it comes after seq 8, past seq 0, the last one session\.json includes\.$/,
    );
    expect(report.backup).toBe(join(folder, 's', (await backups(folder))[0] as string));
    expect(await readFile(join(report.backup as string, 'session.json'))).toEqual(snapshotBefore);
    expect(await readFile(join(report.backup as string, 'events.jsonl'))).toEqual(logBefore);
    // Truncated, never rewritten: what is left is the original's first eight lines.
    expect(await lines(log)).toEqual(original.slice(0, 8));

    // The second run is cut after its prompt: core repairs it to interrupted, and the next prompt completes.
    const session = await manager(folder).get('s');
    expect(session.status).toBe('interrupted');
    expect(historyProblems(session.messages)).toEqual([]);
    const result = await session.prompt('and now?').result();
    expect(result.terminateReason).toBe('completed');
    const listed = (await new FileSessionStore({ root: folder }).list()).sessions[0];
    expect(listed).toMatchObject({ id: 's', status: 'idle', messageCount: 7, title: 'prompt r1' });
  });

  it('a record that gives a history a model refuses (a result for another call): cut before it, the line named', async () => {
    const folder = await root();
    const log = await twoRuns(folder);
    const original = await lines(log);
    // Line 10, the second run's result, now answers a call that does not exist.
    await writeFile(
      log,
      original.map((line, index) => `${index === 9 ? line.replace('"c2"', '"c9"') : line}\n`).join(''),
    );
    const report = await new FileSessionStore({ root: folder, logger: quiet() }).repair('s');
    expect(report).toMatchObject({ keptRecords: 9, droppedRecords: 3, droppedLines: 0, lastSeq: 9 });
    expect(report.problems[0]).toMatch(
      /^events\.jsonl line 10 \(seq 10\) would give a history a model refuses: /,
    );
    expect(await lines(log)).toEqual(original.slice(0, 9));
    const { state } = await restoreSession(new FileSessionStore({ root: folder }), 's');
    // The call is left waiting: a load repairs the run, as after a crash.
    expect(historyProblems(state.messages, { allowPendingCalls: true })).toEqual([]);
  });

  it('a log deleted behind its snapshot: the snapshot is saved again at lastSeq 0, and later appends replay', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder });
    const messages = await snapshotFirstRun(store);
    await unlink(join(folder, 's', 'events.jsonl'));

    const report = await new FileSessionStore({ root: folder }).repair('s');
    expect(report).toMatchObject({
      changed: true,
      keptRecords: 0,
      droppedRecords: 0,
      droppedLines: 0,
      lastSeq: 0,
      snapshotRewritten: true,
    });
    expect(report.problems).toEqual([
      'events.jsonl ends at seq 0, but session.json includes records up to seq 6.',
    ]);
    expect(await readdir(report.backup as string)).toEqual(['events.jsonl', 'session.json']);
    const repaired = await new FileSessionStore({ root: folder }).load('s');
    expect(repaired).toMatchObject({ version: 3, lastSeq: 0, messages });

    const session = await manager(folder).get('s');
    expect((await session.prompt('again').result()).terminateReason).toBe('completed');
    const reloaded = await manager(folder).get('s');
    expect(reloaded.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'toolResult',
      'assistant',
      'user',
      'assistant',
    ]);
  });

  it('a log cut short behind its snapshot and a torn last line: lastSeq follows the log, the torn line goes', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder });
    const messages = await snapshotFirstRun(store);
    const log = join(folder, 's', 'events.jsonl');
    const kept = (await lines(log)).slice(0, 4);
    await writeFile(log, `${kept.map((line) => `${line}\n`).join('')}{"seq":5,"op`);

    const report = await new FileSessionStore({ root: folder, logger: quiet() }).repair('s');
    expect(report).toMatchObject({ keptRecords: 4, droppedLines: 1, lastSeq: 4, snapshotRewritten: true });
    expect(await lines(log)).toEqual(kept);
    expect((await new FileSessionStore({ root: folder }).load('s')).lastSeq).toBe(4);
    expect((await restoreSession(new FileSessionStore({ root: folder }), 's')).state.messages).toEqual(
      messages,
    );
  });

  it('a log cut short behind its snapshot that ends in a damaged line: the damaged line goes too, so the session loads', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder });
    const messages = await snapshotFirstRun(store);
    const log = join(folder, 's', 'events.jsonl');
    const kept = (await lines(log)).slice(0, 3);
    // A complete line that is no record: harmless while the snapshot covers it, past seq 3 once lastSeq follows the log.
    await writeFile(log, `${kept.map((line) => `${line}\n`).join('')}{"seq":4,"op\n`);

    const report = await new FileSessionStore({ root: folder, logger: quiet() }).repair('s');
    expect(report).toMatchObject({ keptRecords: 3, droppedLines: 1, lastSeq: 3, snapshotRewritten: true });
    expect(await lines(log)).toEqual(kept);
    const restored = await restoreSession(new FileSessionStore({ root: folder, logger: quiet() }), 's');
    expect(restored.state.messages).toEqual(messages);
  });

  it('a consistent session is left as it is: nothing written, no backup', async () => {
    const folder = await root();
    const log = await twoRuns(folder);
    const before = await readFile(log);
    const store = new FileSessionStore({ root: folder });
    const written = store.bytesWritten;
    const report = await store.repair('s');
    expect(report).toEqual({
      sessionId: 's',
      changed: false,
      backup: undefined,
      keptRecords: 12,
      droppedRecords: 0,
      droppedLines: 0,
      lastSeq: 12,
      snapshotRewritten: false,
      problems: [],
    });
    expect(store.bytesWritten).toBe(written);
    expect(await readFile(log)).toEqual(before);
    expect(await backups(folder)).toEqual([]);
  });

  it('damage the snapshot holds is reported and left in place; the repair changes nothing', async () => {
    const folder = await root();
    const store = new FileSessionStore({ root: folder, logger: quiet() });
    await snapshotFirstRun(store);
    const log = join(folder, 's', 'events.jsonl');
    await writeFile(log, (await readFile(log, 'utf8')).replace(/^.*\n/, 'garbage\n'));
    const report = await store.repair('s');
    expect(report.changed).toBe(false);
    expect(report.problems).toEqual([
      'events.jsonl line 1: an events log line is not a record; the snapshot holds that part of the history (left in place: session.json holds that history).',
    ]);
    expect(await backups(folder)).toEqual([]);
  });

  it('each repair keeps its own backup, and deleting the session deletes them', async () => {
    const folder = await root();
    const log = await twoRuns(folder);
    const store = new FileSessionStore({ root: folder, logger: quiet() });
    await writeFile(log, `${await readFile(log, 'utf8')}{"torn`);
    const first = await store.repair('s');
    await writeFile(log, `${await readFile(log, 'utf8')}{"torn again`);
    const second = await store.repair('s');
    expect(first.backup).not.toBe(second.backup);
    expect(await backups(folder)).toHaveLength(2);
    expect(await readFile(join(first.backup as string, 'events.jsonl'), 'utf8')).toMatch(/\{"torn$/);
    expect(await readFile(join(second.backup as string, 'events.jsonl'), 'utf8')).toMatch(/\{"torn again$/);
    expect(await store.delete('s')).toBe(true);
    expect(await readdir(folder)).toEqual([]);
  });

  it('refuses while another process runs the session (SessionBusyError), changing nothing', async () => {
    const folder = await root();
    const log = await twoRuns(folder);
    await writeFile(log, `${await readFile(log, 'utf8')}{"torn`);
    const before = await readFile(log);
    const lease = await new FileSessionStore({ root: folder }).lease('s');
    try {
      await expect(new FileSessionStore({ root: folder }).repair('s')).rejects.toBeInstanceOf(
        SessionBusyError,
      );
      expect(await readFile(log)).toEqual(before);
      expect(await backups(folder)).toEqual([]);
    } finally {
      await lease.release();
    }
  });

  it('a snapshot that cannot be parsed: SessionCorruptError naming session.json and a backup to restore; nothing changed', async () => {
    const folder = await root();
    const log = await twoRuns(folder);
    const snapshot = join(folder, 's', 'session.json');
    await writeFile(snapshot, '{"id": "s", ');
    const logBefore = await readFile(log);
    const error = await new FileSessionStore({ root: folder }).repair('s').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SessionCorruptError);
    expect((error as SessionCorruptError).source).toBe(snapshot);
    expect((error as Error).message).toContain('restore session.json from a backup');
    expect(await readFile(log)).toEqual(logBefore);
    expect(await backups(folder)).toEqual([]);
    // The lease was given back.
    await (await new FileSessionStore({ root: folder }).lease('s')).release();
  });

  it('a snapshot that parses but breaks the schema (a flipped byte): the error names the file, the field and what to do', async () => {
    const folder = await root();
    const saved = new FileSessionStore({ root: folder });
    await saved.save(newSessionState({ id: 's', messages: [user('hello')] }), { expectedVersion: 0 });
    const snapshot = join(folder, 's', 'session.json');
    const text = await readFile(snapshot, 'utf8');
    // One flipped bit turns the key "content" into "contenu" (the message has no content any more),
    // or the schemaVersion 1 into 0, a version that never existed.
    const damaged: [string, string][] = [
      [text.replace('"content"', '"contenu"'), "(field 'messages.0.content')"],
      [text.replace('"schemaVersion":1', '"schemaVersion":0'), "(field 'schemaVersion')"],
    ];
    for (const [bytes, field] of damaged) {
      await writeFile(snapshot, bytes);
      const store = new FileSessionStore({ root: folder, logger: recordingLogger().logger });
      for (const attempt of [store.load('s'), store.repair('s')]) {
        const error = await attempt.catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(SessionCorruptError);
        expect((error as SessionCorruptError).source).toBe(snapshot);
        expect((error as Error).message).toContain(field);
        expect((error as Error).message).toMatch(
          /restore (it|session\.json) from a backup .* or delete the session\./i,
        );
        // Said once, not once by the parse and again by the repair.
        expect((error as Error).message.match(/from a backup/g)).toHaveLength(1);
      }
    }
  });

  it("a snapshot holding another session's id (a flipped byte) is refused, never loaded as that session", async () => {
    const folder = await root();
    await twoRuns(folder);
    const snapshot = join(folder, 's', 'session.json');
    await writeFile(snapshot, (await readFile(snapshot, 'utf8')).replace('"id":"s"', '"id":"r"'));
    const store = new FileSessionStore({ root: folder, logger: quiet() });
    for (const attempt of [store.load('s'), store.repair('s')]) {
      const error = await attempt.catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(SessionCorruptError);
      expect((error as SessionCorruptError).source).toBe(snapshot);
      expect((error as Error).message).toContain(
        "it holds session 'r', but it is the snapshot of session 's'",
      );
    }
  });

  it('a snapshot lost beside its log: SessionCorruptError saying a repair cannot rebuild it; nothing changed, and delete removes it', async () => {
    const folder = await root();
    const log = await twoRuns(folder);
    const snapshot = join(folder, 's', 'session.json');
    await unlink(snapshot);
    const logBefore = await readFile(log);
    const store = new FileSessionStore({ root: folder, logger: quiet() });
    const error = await store.repair('s').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SessionCorruptError);
    expect((error as SessionCorruptError).source).toBe(snapshot);
    expect((error as Error).message).toContain('it is missing, but the events log beside it holds');
    expect((error as Error).message).toContain(
      'A repair only cuts the events log and cannot rebuild a snapshot: restore session.json from a backup',
    );
    expect((error as Error).message).toMatch(/Nothing was changed\.$/);
    expect((error as Error).message.match(/from a backup/g)).toHaveLength(1);
    expect(await readFile(log)).toEqual(logBefore);
    expect(await backups(folder)).toEqual([]);
    // The lease was given back, and the session can be removed.
    await (await new FileSessionStore({ root: folder }).lease('s')).release();
    expect(await store.delete('s')).toBe(true);
    expect(await readdir(folder)).toEqual([]);
  });

  it('an id never stored: SessionNotFoundError', async () => {
    const folder = await root();
    await expect(new FileSessionStore({ root: folder }).repair('nobody')).rejects.toMatchObject({
      code: 'session_not_found',
    });
  });
});
