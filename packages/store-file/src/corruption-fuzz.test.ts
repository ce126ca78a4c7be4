import { copyFile, mkdir, mkdtemp, readFile, rm, stat, truncate, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AgentError,
  type AgentMessage,
  historyProblems,
  newSessionState,
  type SessionEvent,
  SessionManager,
} from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSessionStore } from './file-session-store.js';
import { parseLogLines } from './log-lines.js';
import { recordingLogger } from './test-support/recording-logger.js';
import { answer, toolCall, toolResult, user } from './test-support/session-events.js';
import { fineProvider } from './test-support/running-child.js';

// Random damage to the files of a stored session (a byte flipped, a line cut, a file removed, a file
// truncated) gives a clean load, a repair with a warning, or SessionCorruptError naming the file:
// never a history a provider refuses. After `repair`, every damaged session loads and takes a prompt,
// unless its snapshot is what was damaged: that is SessionCorruptError naming session.json.

const soak = process.env.AGENT_CORE_SOAK === '1';
const seed = Number(process.env.AGENT_CORE_SEED);
const settings = (short: number, long: number) => ({
  numRuns: soak ? long : short,
  ...(Number.isInteger(seed) ? { seed } : {}),
});
const at = '2026-03-01T00:00:00.000Z';
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 };

/** A run as the journal logs it, with the tool call's start; `ended: false` is a run its process left. */
function run(runId: string, callId: string, ended = true): SessionEvent[] {
  const call = toolCall(callId);
  const events: SessionEvent[] = [
    { type: 'run_started', runId, at },
    { type: 'message', message: user(`prompt ${runId}`) },
    { type: 'message', message: call },
    { type: 'tool_started', toolCallId: callId, toolName: 'add', input: { a: 1 }, at },
  ];
  if (!ended) return events;
  return [
    ...events,
    { type: 'message', message: toolResult(callId) },
    { type: 'message', message: answer(`done ${runId}`) },
    { type: 'run_ended', runId, reason: 'completed', usage, at },
  ];
}

const provider = fineProvider;

const files = ['session.json', 'events.jsonl', 'summary.json'] as const;
let base: string;
let template: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'store-file-fuzz-'));
  template = join(base, 'template');
  // A snapshot holding the first run (records 1 to 7), a log going on with a second run and a third
  // that its process left in the middle of a tool call: what a crash leaves on a disk that then breaks.
  const store = new FileSessionStore({ root: template });
  const state = newSessionState({ id: 's' });
  await store.save(state, { expectedVersion: 0 });
  await store.append('s', run('r1', 'c1'), { operationId: 'r1' });
  const messages: AgentMessage[] = [user('prompt r1'), toolCall('c1'), toolResult('c1'), answer('done r1')];
  await store.save({ ...state, version: 1, messages, lastSeq: 7 }, { expectedVersion: 1 });
  await store.append('s', run('r2', 'c2'), { operationId: 'r2' });
  await store.append('s', run('r3', 'c3', false), { operationId: 'r3' });
  for (const file of files) await stat(join(template, 's', file));
});
afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

type Damage =
  | { file: (typeof files)[number]; kind: 'flip'; at: number; xor: number }
  | { file: (typeof files)[number]; kind: 'cut_line' | 'truncate'; at: number }
  | { file: (typeof files)[number]; kind: 'remove' };

const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({
    file: fc.constantFrom(...files),
    kind: fc.constant('flip' as const),
    at: fc.nat(),
    xor: fc.integer({ min: 1, max: 255 }),
  }),
  fc.record({
    file: fc.constantFrom(...files),
    kind: fc.constantFrom('cut_line' as const, 'truncate' as const),
    at: fc.nat(),
  }),
  fc.record({ file: fc.constantFrom(...files), kind: fc.constant('remove' as const) }),
);

async function apply(folder: string, change: Damage): Promise<void> {
  const path = join(folder, change.file);
  const bytes = await readFile(path).catch(() => undefined);
  if (bytes === undefined) return;
  if (change.kind === 'remove') return unlink(path);
  if (bytes.length === 0) return;
  const position = change.at % bytes.length;
  if (change.kind === 'truncate') return truncate(path, position);
  if (change.kind === 'flip') {
    bytes[position] = (bytes[position] as number) ^ change.xor;
    return writeFile(path, bytes);
  }
  // Cut a line: from `position` to the end of its line, the newline kept.
  const end = bytes.indexOf(0x0a, position);
  await writeFile(
    path,
    Buffer.concat([bytes.subarray(0, position), end < 0 ? Buffer.alloc(0) : bytes.subarray(end)]),
  );
}

async function sizeOf(path: string): Promise<number> {
  return (await stat(path).catch(() => undefined))?.size ?? 0;
}

let copies = 0;
const corruptSources = new Set<string>();
async function damagedCopy(changes: readonly Damage[]): Promise<string> {
  const root = join(base, `copy-${copies++}`);
  await mkdir(join(root, 's'), { recursive: true });
  for (const file of files) await copyFile(join(template, 's', file), join(root, 's', file));
  for (const change of changes) await apply(join(root, 's'), change);
  return root;
}

function managerOf(store: FileSessionStore): SessionManager {
  return new SessionManager({
    store,
    agentOptions: () => ({ provider, model: 'm', orchestrator: stepOrchestrator }),
  });
}

type Outcome = 'loaded' | 'corrupt' | 'not_found';

/** Loads the session: it either loads with a history a provider accepts and takes a prompt, or fails with a clear error. */
async function loadAndPrompt(store: FileSessionStore, root: string): Promise<Outcome> {
  const manager = managerOf(store);
  let session: Awaited<ReturnType<SessionManager['get']>>;
  try {
    session = await manager.get('s');
  } catch (error) {
    if (!AgentError.isInstance(error)) throw error;
    if (error.code === 'session_not_found') return 'not_found';
    expect(error.code).toMatch(/^session_(corrupt|schema_unsupported)$/);
    // The error names the damaged file; damage that leaves every record well-formed but the history
    // one a model would refuse (a flipped call id) is found by core's replay, which names the session.
    const source = (error as { source?: string }).source ?? '';
    if (source === "session 's'")
      expect(error.message).toContain('its stored history could not be sent to a model');
    else {
      expect(source).toContain(join(root, 's'));
      expect(error.message).toMatch(/session\.json|events\.jsonl/);
    }
    expect(error.message).toMatch(/repair|restore/i);
    corruptSources.add(source.startsWith(root) ? source.slice(root.length + 1) : source);
    return 'corrupt';
  }
  const pending = session.status === 'await_user' || session.status === 'interrupted';
  expect(historyProblems(session.messages, { allowPendingCalls: pending })).toEqual([]);
  const result = await session.prompt('go on').result();
  expect(result.terminateReason).toBe('completed');
  expect(historyProblems(result.messages)).toEqual([]);
  expect(result.messages.length).toBeGreaterThan(session.messages.length === 0 ? 0 : 1);
  return 'loaded';
}

describe('random damage to the files of a stored session', () => {
  it('loads cleanly, repairs with a warning, or fails naming the file; after repair(id) it takes a prompt', async () => {
    const tally = { loaded: 0, corrupt: 0, not_found: 0, repaired: 0, snapshotRefused: 0, warned: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(damage, { minLength: 1, maxLength: 3 }), async (changes) => {
        const root = await damagedCopy(changes);
        const { logger, warnings } = recordingLogger();
        const store = new FileSessionStore({ root, logger });
        const outcome = await loadAndPrompt(store, root);
        tally[outcome]++;
        if (warnings.length > 0) tally.warned++;
        // Listing never throws: a session it cannot read is left out with a warning.
        await store.list();
        if (outcome === 'not_found') {
          // Only a missing snapshot beside an empty or missing log makes a session unknown: a log
          // holding records is a session that lost its snapshot, never one a new session may take.
          expect(changes.some((change) => change.file === 'session.json' && change.kind === 'remove')).toBe(
            true,
          );
          expect(await sizeOf(join(root, 's', 'events.jsonl'))).toBe(0);
          return;
        }
        if (outcome === 'loaded') return;
        const repairing = new FileSessionStore({ root, logger: recordingLogger().logger });
        const report = await repairing.repair('s').catch((error: unknown) => error);
        if (report instanceof Error) {
          // A snapshot that cannot be read is never guessed at: the error names it, to restore from a backup.
          expect(AgentError.isInstance(report) && report.code).toBe('session_corrupt');
          expect(report.message).toContain('session.json');
          expect(report.message).toMatch(
            /A repair only cuts the events log.*delete the session\. Nothing was changed\.$/,
          );
          expect(changes.some((change) => change.file === 'session.json')).toBe(true);
          tally.snapshotRefused++;
          return;
        }
        expect(
          await loadAndPrompt(new FileSessionStore({ root, logger: recordingLogger().logger }), root),
        ).toBe('loaded');
        tally.repaired++;
      }),
      settings(60, 3000),
    );
    if (soak) console.log('damaged sessions', tally, 'refused naming', [...corruptSources]);
    expect(tally.loaded + tally.corrupt).toBeGreaterThan(0);
  }, 600_000);

  it.runIf(soak)(
    'every single byte of session.json and events.jsonl flipped, one at a time: the same',
    async () => {
      let cases = 0;
      for (const file of ['session.json', 'events.jsonl'] as const) {
        const length = (await readFile(join(template, 's', file))).length;
        for (let at = 0; at < length; at++) {
          for (const xor of [1, 0x20]) {
            const root = await damagedCopy([{ file, kind: 'flip', at, xor }]);
            const outcome = await loadAndPrompt(
              new FileSessionStore({ root, logger: recordingLogger().logger }),
              root,
            );
            if (outcome === 'corrupt' && file === 'events.jsonl') {
              await new FileSessionStore({ root, logger: recordingLogger().logger }).repair('s');
              expect(
                await loadAndPrompt(new FileSessionStore({ root, logger: recordingLogger().logger }), root),
              ).toBe('loaded');
            }
            cases++;
          }
        }
      }
      console.log('single-byte flips checked', cases);
    },
    3_600_000,
  );
});

describe('the events log reader on arbitrary bytes', () => {
  const validLog = async () => readFile(join(template, 's', 'events.jsonl'));

  it('parseLogLines never throws, and places every complete line', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        const lines = parseLogLines(bytes);
        for (const line of lines) {
          expect(line.end).toBeGreaterThan(line.start);
          expect(bytes[line.end - 1]).toBe(0x0a);
          expect(line.record === undefined).toBe(line.problem !== undefined);
        }
      }),
      settings(2000, 100_000),
    );
  });

  it('a log of arbitrary bytes or JSON lines after an empty snapshot loads a valid history or is SessionCorruptError', async () => {
    const anyLine = fc.oneof(
      fc.json().map((text) => `${text}\n`),
      fc.string().map((text) => `${text}\n`),
      fc
        .record({ seq: fc.integer({ min: -1, max: 30 }), operationId: fc.string(), event: fc.anything() })
        .map((record) => `${JSON.stringify(record)}\n`),
    );
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 600 }),
      fc.array(anyLine, { maxLength: 8 }).map((lines) => Buffer.from(lines.join(''))),
    );
    await fc.assert(
      fc.asyncProperty(bytes, async (log) => {
        const root = join(base, `arbitrary-${copies++}`);
        const store = new FileSessionStore({ root, logger: recordingLogger().logger });
        await store.save(newSessionState({ id: 's' }), { expectedVersion: 0 });
        await writeFile(join(root, 's', 'events.jsonl'), log);
        await loadAndPrompt(new FileSessionStore({ root, logger: recordingLogger().logger }), root);
      }),
      settings(100, 5000),
    );
  }, 600_000);

  it('a valid log cut at any byte loads, its torn line set aside with a warning; split anywhere by newlines, it loads or names the line', async () => {
    const log = await validLog();
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: log.length }),
        fc.array(fc.nat({ max: log.length }), { maxLength: 3 }),
        async (cut, splits) => {
          const root = await damagedCopy([]);
          const path = join(root, 's', 'events.jsonl');
          await writeFile(path, log.subarray(0, cut));
          const { logger, warnings } = recordingLogger();
          const outcome = await loadAndPrompt(new FileSessionStore({ root, logger }), root);
          // A cut inside the snapshot's part makes records it claims missing; past it, a torn line is set aside.
          const tornTail = cut > 0 && log[cut - 1] !== 0x0a;
          if (outcome === 'loaded' && tornTail) expect(warnings.length).toBeGreaterThan(0);
          // The same log with newlines inserted at arbitrary places.
          const split = await damagedCopy([]);
          const pieces: Buffer[] = [];
          let from = 0;
          for (const place of [...splits].sort((left, right) => left - right)) {
            pieces.push(log.subarray(from, place), Buffer.from('\n'));
            from = place;
          }
          pieces.push(log.subarray(from));
          await writeFile(join(split, 's', 'events.jsonl'), Buffer.concat(pieces));
          await loadAndPrompt(new FileSessionStore({ root: split, logger: recordingLogger().logger }), split);
        },
      ),
      settings(40, 2000),
    );
  }, 600_000);
});
