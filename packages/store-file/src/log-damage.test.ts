import { readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  historyProblems,
  newSessionState,
  restoreSession,
  SessionCorruptError,
  SessionManager,
} from '@agent-core/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import { recordingLogger } from './test-support/recording-logger.js';
import { answer, toolRun, user } from './test-support/session-events.js';
import { useTemporaryRoots } from './test-support/temporary-roots.js';
import { snapshotFirstRun } from './test-support/snapshot-first-run.js';
import { rejectionOf } from './test-support/rejection-of.js';

const root = useTemporaryRoots('store-file-damage-');
afterEach(async () => {
  vi.restoreAllMocks();
});

/** A session whose log holds one run with a tool call: six records, none in the snapshot. */
async function sessionWithRun(folder: string, id = 's'): Promise<string> {
  const store = new FileSessionStore({ root: folder });
  await store.save(newSessionState({ id }), { expectedVersion: 0 });
  await store.append(id, toolRun('r1', 'c1'), { operationId: 'r1' });
  return join(folder, id, 'events.jsonl');
}

/** A session whose snapshot holds the first run (records 1 to 6) and whose log goes on with a second (7 to 12). */
async function sessionWithSnapshot(folder: string, id = 's'): Promise<string> {
  const store = new FileSessionStore({ root: folder });
  await snapshotFirstRun(store, id);
  await store.append(id, toolRun('r2', 'c2'), { operationId: 'r2' });
  return join(folder, id, 'events.jsonl');
}

/** A manager over `store` whose agents have no model: for loading and repairing sessions only. */
function loadingManager(store: FileSessionStore): SessionManager {
  return new SessionManager({
    store,
    agentOptions: () => ({ provider: { name: 'none', stream: () => [] as never }, model: 'm' }),
  });
}

async function rewriteLines(path: string, change: (lines: string[]) => string[]): Promise<void> {
  const lines = (await readFile(path, 'utf8')).split('\n').slice(0, -1);
  await writeFile(
    path,
    change(lines)
      .map((line) => `${line}\n`)
      .join(''),
  );
}

function corrupt(action: Promise<unknown>): Promise<SessionCorruptError> {
  return rejectionOf(action, SessionCorruptError, 'expected SessionCorruptError, and it succeeded');
}

const quiet = () => recordingLogger().logger;

describe('a damaged events log after the snapshot: SessionCorruptError naming the file and the line', () => {
  it('a corrupt line in the middle (the tool call) is refused, where it once gave a result without its call', async () => {
    const folder = await root();
    const log = await sessionWithRun(folder);
    await rewriteLines(log, (lines) =>
      lines.map((line, index) => (index === 2 ? '{"seq":3,"operationId":"r1","ev' : line)),
    );
    const before = await readFile(log);

    const store = new FileSessionStore({ root: folder, logger: quiet() });
    const error = await corrupt(restoreSession(store, 's'));
    expect(error.source).toBe(log);
    expect(error.message).toContain('line 3 is not a log record (not JSON');
    expect(error.message).toContain("FileSessionStore.repair('s')");
    expect(error.message).toContain('agent-core sessions repair s');
    // The same through a manager, and no append goes on after the damage.
    const manager = loadingManager(store);
    expect((await corrupt(manager.get('s'))).source).toBe(log);
    await corrupt(
      store.append(
        's',
        [user('more')].map((message) => ({ type: 'message', message })),
        { operationId: 'x' },
      ),
    );
    expect(await readFile(log)).toEqual(before);
  });

  it('a record whose message lost a field (a byte flipped in a key) is refused naming the line; repair cuts it and the session takes a prompt', async () => {
    const folder = await root();
    const log = await sessionWithRun(folder);
    // Line 4 is the tool result: "toolName" becomes "toolNamd", so the message lacks its tool name.
    await rewriteLines(log, (lines) =>
      lines.map((line, index) => (index === 3 ? line.replace('"toolName"', '"toolNamd"') : line)),
    );
    const store = new FileSessionStore({ root: folder, logger: quiet() });
    const manager = loadingManager(store);
    // Before, it loaded, and the save of its crash repair failed with "fix the value and try again".
    const error = await corrupt(manager.get('s'));
    expect(error.source).toBe(log);
    expect(error.message).toContain(
      "line 4 (seq 4) its message is not one a session can hold (field 'toolName'",
    );
    expect(error.message).toContain("FileSessionStore.repair('s')");
    const report = await store.repair('s');
    expect(report.lastSeq).toBe(3);
    expect(report.problems.join(' ')).toContain('events.jsonl line 4 (seq 4)');
    const loaded = await new FileSessionStore({ root: folder, logger: quiet() }).load('s');
    expect(historyProblems(loaded.messages, { allowPendingCalls: true })).toEqual([]);
  });

  it('a record whose event lost a field a replay reads, or whose type is unknown, is refused naming the line', async () => {
    const cases: [string, (line: string) => string, string][] = [
      // "usage" flipped to "tsage": the replay read usage.input of undefined and threw a TypeError.
      [
        'run_ended without usage',
        (line) => line.replace('"usage"', '"tsage"'),
        'line 6 is not a log record (its run_ended event has no usage of numbers)',
      ],
      // "run_started" flipped to "sun_started": skipped, it left the run looking finished, its calls unanswered.
      [
        'an unknown type',
        (line) => line.replace('"run_started"', '"sun_started"'),
        'line 1 is not a log record (its event type "sun_started" is not one agent-core writes)',
      ],
    ];
    for (const [label, change, expected] of cases) {
      const folder = await root();
      const log = await sessionWithRun(folder);
      await rewriteLines(log, (lines) => lines.map((line) => change(line)));
      const error = await corrupt(
        restoreSession(new FileSessionStore({ root: folder, logger: quiet() }), 's'),
      );
      expect(error.source, label).toBe(log);
      expect(error.message, label).toContain(expected);
    }
  });

  it('a record nested 100,000 levels deep (written by another program) is refused naming the line, never a RangeError; repair cuts it', async () => {
    const folder = await root();
    const log = await sessionWithRun(folder);
    // Built as text: JSON.stringify itself overflows the stack on such a value.
    const deep = `${'{"a":'.repeat(100_000)}{}${'}'.repeat(100_000)}`;
    await rewriteLines(log, (lines) =>
      lines.map((line, index) =>
        index === 4
          ? `{"seq":5,"operationId":"r1","event":{"type":"message","message":{"role":"note","data":${deep}}}}`
          : line,
      ),
    );
    const store = new FileSessionStore({ root: folder, logger: quiet() });
    const manager = loadingManager(store);
    const error = await corrupt(manager.get('s'));
    expect(error.source).toBe(log);
    expect(error.message).toContain(
      "line 5 is not a log record (its event's field 'message': it is nested more than 256 levels deep",
    );
    // Listing reads no record of the log: it answers, whatever it shows of the damaged session.
    await store.list();
    const report = await store.repair('s');
    expect(report.lastSeq).toBe(4);
    const session = await new SessionManager({
      store: new FileSessionStore({ root: folder, logger: quiet() }),
      agentOptions: () => ({
        provider: {
          name: 'scripted',
          async *stream() {
            yield { type: 'done', message: answer('again') as never };
          },
        },
        model: 'm',
      }),
    }).get('s');
    expect(historyProblems(session.messages, { allowPendingCalls: true })).toEqual([]);
  });

  it('a line removed from the middle is a gap: the error names the line after it and the missing record', async () => {
    const folder = await root();
    const log = await sessionWithRun(folder);
    await rewriteLines(log, (lines) => lines.filter((_, index) => index !== 3));
    const error = await corrupt(restoreSession(new FileSessionStore({ root: folder, logger: quiet() }), 's'));
    expect(error.source).toBe(log);
    expect(error.message).toContain(
      'line 4 has seq 5, but the record before it has seq 3: record 4 is missing',
    );
  });

  it('a seq written twice (two writers at once) is refused where a load would replay it', async () => {
    const folder = await root();
    const log = await sessionWithRun(folder);
    await rewriteLines(log, (lines) => [...lines, lines[5] as string]);
    const error = await corrupt(restoreSession(new FileSessionStore({ root: folder, logger: quiet() }), 's'));
    expect(error.message).toContain('line 7 repeats seq 6 after seq 6');
  });

  it('an append is refused with InvalidSessionStateError for an entry a read would refuse, and writes nothing', async () => {
    const folder = await root();
    const log = await sessionWithRun(folder);
    const before = await readFile(log);
    const store = new FileSessionStore({ root: folder });
    const entries = [{ type: 'message', message: { content: 'no role' } }] as never;
    await expect(store.append('s', entries, { operationId: 'bad' })).rejects.toMatchObject({
      code: 'invalid_session_state',
      field: 'entries.0',
    });
    expect(await readFile(log)).toEqual(before);
  });
});

describe('damage before the snapshot: the snapshot holds that history, so a warning and the load goes on', () => {
  it('a corrupt line and a missing line before lastSeq warn with their line numbers; the history is whole', async () => {
    const folder = await root();
    const log = await sessionWithSnapshot(folder);
    await rewriteLines(log, (lines) =>
      lines.filter((_, index) => index !== 4).map((line, index) => (index === 1 ? 'garbage' : line)),
    );
    const { warnings, logger } = recordingLogger();
    const { state } = await restoreSession(new FileSessionStore({ root: folder, logger }), 's');
    expect(state.messages).toHaveLength(8);
    expect(historyProblems(state.messages)).toEqual([]);
    expect(warnings.map((warning) => [warning.message, warning.fields?.line])).toEqual([
      ['an events log line is not a record; the snapshot holds that part of the history', 2],
      ['records the snapshot holds are missing from the events log', 5],
    ]);
  });
});

describe('a log lost behind its snapshot: never numbered from 1 again', () => {
  it('a deleted events.jsonl: load and append refuse, naming the log and the records missing; no log is recreated', async () => {
    const folder = await root();
    const log = await sessionWithSnapshot(folder);
    await unlink(log);
    const store = new FileSessionStore({ root: folder });
    const error = await corrupt(restoreSession(store, 's'));
    expect(error.source).toBe(log);
    expect(error.message).toContain(
      'it holds no record, but session.json includes records up to seq 6: records 1 to 6 are missing',
    );
    const other = new FileSessionStore({ root: folder });
    await corrupt(other.append('s', toolRun('r3', 'c3'), { operationId: 'r3' }));
    await expect(readFile(log)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a log cut short behind its snapshot: the error says where it ends; the store that wrote it refuses too', async () => {
    const folder = await root();
    const log = await sessionWithSnapshot(folder);
    const writer = new FileSessionStore({ root: folder });
    await writer.read('s');
    await rewriteLines(log, (lines) => lines.slice(0, 3));
    const error = await corrupt(restoreSession(new FileSessionStore({ root: folder }), 's'));
    expect(error.message).toContain(
      'it ends at seq 3, but session.json includes records up to seq 6: records 4 to 6 are missing',
    );
    await corrupt(writer.append('s', toolRun('r3', 'c3'), { operationId: 'r3' }));
    await corrupt(writer.read('s', { fromSeq: 7 }));
    expect((await readFile(log, 'utf8')).split('\n')).toHaveLength(4);
  });
});

describe('a snapshot lost beside its log: the session is damaged, never unknown', () => {
  it('load, restore and a new save under its id refuse naming session.json; the log is left as it was', async () => {
    const folder = await root();
    const log = await sessionWithRun(folder);
    const snapshot = join(folder, 's', 'session.json');
    await unlink(snapshot);
    const before = await readFile(log);
    const store = new FileSessionStore({ root: folder, logger: quiet() });
    for (const attempt of [store.load('s'), restoreSession(store, 's')]) {
      const error = await corrupt(attempt);
      expect(error.source).toBe(snapshot);
      expect(error.message).toContain(
        `it is missing, but the events log beside it holds ${before.length} bytes of the session's history`,
      );
      expect(error.message).toMatch(/Restore it from a backup .* or delete the session\.$/);
    }
    // A new session with the same id would replay the old session's records as its own.
    await corrupt(store.save(newSessionState({ id: 's' }), { expectedVersion: 0 }));
    const manager = new SessionManager({
      store: new FileSessionStore({ root: folder, logger: quiet() }),
      agentOptions: () => ({ provider: { name: 'unused', stream: () => ({}) as never }, model: 'm' }),
    });
    await corrupt(manager.create({ id: 's' }));
    await corrupt(manager.get('s'));
    expect(await readFile(log)).toEqual(before);
    await expect(readFile(snapshot)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('it can be leased and deleted, and list() leaves it out with a warning; then the id is free', async () => {
    const folder = await root();
    await sessionWithRun(folder);
    await sessionWithRun(folder, 'other');
    await unlink(join(folder, 's', 'session.json'));
    const { logger, warnings } = recordingLogger();
    const store = new FileSessionStore({ root: folder, logger });
    const lease = await store.lease('s');
    await lease.release();
    expect((await store.list()).sessions.map((summary) => summary.id)).toEqual(['other']);
    expect(warnings).toEqual([
      {
        message: 'a stored session cannot be read; it is left out of the list',
        fields: expect.objectContaining({
          path: join(folder, 's'),
          error: expect.stringContaining('session.json cannot be read: it is missing'),
        }),
      },
    ]);
    expect(await store.delete('s')).toBe(true);
    await expect(store.load('s')).rejects.toMatchObject({ code: 'session_not_found' });
    await expect(store.lease('s')).rejects.toMatchObject({ code: 'session_not_found' });
    await store.save(newSessionState({ id: 's' }), { expectedVersion: 0 });
    expect(await store.read('s')).toEqual([]);
    expect((await store.load('s')).messages).toEqual([]);
  });

  it('a folder with an empty log or none and no snapshot is a session never stored', async () => {
    const folder = await root();
    await sessionWithRun(folder);
    await unlink(join(folder, 's', 'session.json'));
    await writeFile(join(folder, 's', 'events.jsonl'), '');
    const store = new FileSessionStore({ root: folder, logger: quiet() });
    await expect(store.load('s')).rejects.toMatchObject({ code: 'session_not_found' });
    expect((await store.list()).sessions).toEqual([]);
    await unlink(join(folder, 's', 'events.jsonl'));
    await expect(store.load('s')).rejects.toMatchObject({ code: 'session_not_found' });
    await store.save(newSessionState({ id: 's' }), { expectedVersion: 0 });
    expect((await store.load('s')).version).toBe(1);
  });
});

describe('a snapshot that says more than its log', () => {
  it('is refused at save (InvalidSessionStateError on lastSeq), so no later append is lost behind it', async () => {
    const folder = await root();
    const log = await sessionWithRun(folder);
    const store = new FileSessionStore({ root: folder });
    const state = await store.load('s');
    await expect(store.save({ ...state, lastSeq: 7 }, { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'invalid_session_state',
      field: 'lastSeq',
    });
    // Another process, which never read this log, refuses too; the lastSeq the appends returned is taken.
    const other = new FileSessionStore({ root: folder });
    await expect(other.save({ ...state, lastSeq: 9 }, { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'invalid_session_state',
    });
    expect((await other.load('s')).version).toBe(1);
    await expect(other.save({ ...state, lastSeq: 6 }, { expectedVersion: 1 })).resolves.toEqual({
      version: 2,
    });
    expect((await readFile(log, 'utf8')).split('\n')).toHaveLength(7);
  });
});

describe('without a logger', () => {
  it("warnings go to stderr as core's stderrLogger('warn') writes them", async () => {
    const folder = await root();
    const log = await sessionWithRun(folder);
    await writeFile(log, `${await readFile(log, 'utf8')}{"seq":7,"operationId":"r2","ev`);
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    await new FileSessionStore({ root: folder }).read('s');
    vi.restoreAllMocks();
    const lines = written.map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        message: 'the last line of an events log was torn (a crash during an append); it was moved aside',
        path: log,
      }),
    ]);
  });
});
