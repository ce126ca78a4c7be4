import type { SessionLogRecord } from '../session/session-event.js';
import { newSessionState } from '../session/session-state.js';
import type { SessionStore } from '../session/session-store.js';
import { check, checkRejects, checkSameJson } from './assertions.js';
import { callOptionChecks } from './call-option-checks.js';
import type { ConformanceHarness } from './conformance-case.js';
import { depthChecks, storedDepthChecks } from './depth-checks.js';
import { crossProcessChecks, leaseChecks, type StoreCheck, stoppedHolderChecks } from './lease-checks.js';
import { sampleEvents, sampleSessionState } from './session-fixtures.js';
import { summaryChecks } from './summary-checks.js';

/** Options of `sessionStoreConformance`. */
export interface ConformanceOptions {
  /** The store implements `lease` (one that several processes share should): its checks are registered too. */
  leases?: boolean;
  /**
   * Another handle on the same stored data, as another process would open it
   * (a new `FileSessionStore` on the same root, a new pool on the same
   * database). With it, the cross-process checks use two handles; without
   * it, they use the one store.
   */
  reopen?: (store: SessionStore) => SessionStore | Promise<SessionStore>;
  /**
   * A handle on the same data whose leases the store sees as held by a
   * process that stopped (one that claims the pid of an exited process, or
   * whose leases expire at once and are never renewed). With it (and
   * `leases`), the suite checks that such a lease is taken over, that a
   * running session it held is listed `interrupted`, and that its writes are
   * refused with `SessionLeaseLostError` once another holder took over.
   */
  stoppedHolder?: (store: SessionStore) => SessionStore | Promise<SessionStore>;
  /**
   * Replaces the stored snapshot of session `id` (saved by the suite first)
   * with the JSON text `json`, past the store's own checks, as another
   * program or a damaged medium could: for a file store its `session.json`,
   * for a database the session's row. With it, the suite checks that a
   * stored state nested past the depth limits loads as `SessionCorruptError`.
   */
  writeRawSnapshot?: (store: SessionStore, id: string, json: string) => Promise<void>;
}

/**
 * Registers the tests every `SessionStore` must pass, through the caller's own
 * `test` (and optional `describe`), so it runs under vitest, `node:test` or
 * anything alike. `makeStore` gives a fresh, empty store for each test.
 * Failures are plain thrown `Error`s.
 *
 * @example
 * import { test, describe } from 'vitest';
 * import { sessionStoreConformance } from '@agent-core/core/testing';
 * sessionStoreConformance(() => new MemorySessionStore(), { test, describe });
 */
export function sessionStoreConformance(
  makeStore: () => SessionStore | Promise<SessionStore>,
  harness: ConformanceHarness,
  options: ConformanceOptions = {},
): void {
  const checks: Record<string, StoreCheck> = {
    ...storeChecks,
    ...summaryChecks,
    ...crossProcessChecks,
    ...depthChecks,
    ...callOptionChecks,
  };
  if (options.writeRawSnapshot !== undefined) Object.assign(checks, storedDepthChecks);
  if (options.leases === true) Object.assign(checks, leaseChecks);
  if (options.leases === true && options.stoppedHolder !== undefined)
    Object.assign(checks, stoppedHolderChecks);
  const register = () => {
    for (const [name, body] of Object.entries(checks))
      harness.test(name, async () => body(await makeStore(), options));
  };
  if (harness.describe === undefined) register();
  else harness.describe('SessionStore conformance', register);
}

const storeChecks: Record<string, StoreCheck> = {
  async 'round-trips every message kind, metadata, usage, trace and pending approvals'(store) {
    const state = sampleSessionState('round-trip');
    const { version } = await store.save(state, { expectedVersion: 0 });
    check(version === 1, `the first save should store version 1, got ${version}`);
    const loaded = await store.load('round-trip');
    checkSameJson(loaded, { ...state, version: 1 }, 'the loaded session');
  },

  async 'gives a copy: changing a loaded state changes nothing stored'(store) {
    await store.save(sampleSessionState('copy'), { expectedVersion: 0 });
    const first = await store.load('copy');
    first.messages.length = 0;
    first.metadata.title = 'changed';
    const second = await store.load('copy');
    check(second.messages.length > 0 && second.metadata.title === 'sample', 'a loaded state must be a copy');
  },

  async 'refuses a stale save with SessionConflictError and writes nothing'(store) {
    const state = sampleSessionState('conflict');
    await store.save(state, { expectedVersion: 0 });
    const { version } = await store.save({ ...state, metadata: { step: 2 } }, { expectedVersion: 1 });
    check(version === 2, `a second save should store version 2, got ${version}`);
    const error = await checkRejects(
      () => store.save({ ...state, metadata: { step: 'stale' } }, { expectedVersion: 1 }),
      'session_conflict',
      'a save from version 1 when 2 is stored',
    );
    check(
      (error as { actualVersion?: number }).actualVersion === 2,
      'the conflict should name the stored version',
    );
    await checkRejects(
      () => store.save({ ...state, metadata: { step: 'again' } }, { expectedVersion: 0 }),
      'session_conflict',
      'creating a session whose id is taken',
    );
    const loaded = await store.load('conflict');
    checkSameJson(loaded.metadata, { step: 2 }, 'the stored metadata after refused saves');
    check(loaded.version === 2, 'the stored version after refused saves');
  },

  async 'fails loudly for an id never stored, never giving an empty session'(store) {
    await checkRejects(() => store.load('never-stored'), 'session_not_found', 'loading an unknown id');
    await checkRejects(
      () => store.read('never-stored'),
      'session_not_found',
      'reading the log of an unknown id',
    );
    await checkRejects(
      () => store.append('never-stored', sampleEvents('x'), { operationId: 'op' }),
      'session_not_found',
      'appending to an unknown id',
    );
    check((await store.delete('never-stored')) === false, 'deleting an unknown id resolves false');
  },

  async 'refuses unsafe ids and never rewrites them'(store) {
    for (const id of [
      '../escape',
      '.',
      '..',
      'a/b',
      'a\\b',
      '',
      'x'.repeat(129),
      'space here',
      'nul\u0000',
    ]) {
      await checkRejects(
        () => store.save(newSessionState({ id }), { expectedVersion: 0 }),
        'invalid_session_id',
        `saving id ${JSON.stringify(id)}`,
      );
      await checkRejects(() => store.load(id), 'invalid_session_id', `loading id ${JSON.stringify(id)}`);
    }
    await store.save(newSessionState({ id: `Az09._-${'y'.repeat(121)}` }), { expectedVersion: 0 });
    check((await store.list()).sessions.length === 1, 'only the valid id is stored');
  },

  async 'lists newest first, page by page, each session once'(store) {
    for (const [index, id] of ['a', 'b', 'c', 'd', 'e'].entries()) {
      await store.save(sampleSessionState(id, `2026-01-0${index + 1}T00:00:00.000Z`), { expectedVersion: 0 });
    }
    const first = await store.list({ limit: 2 });
    checkSameJson(
      first.sessions.map((summary) => summary.id),
      ['e', 'd'],
      'the first page',
    );
    check(first.nextCursor !== undefined, 'a first page of several has a cursor');
    const second = await store.list({ limit: 2, cursor: first.nextCursor });
    checkSameJson(
      second.sessions.map((summary) => summary.id),
      ['c', 'b'],
      'the second page',
    );
    const third = await store.list({ limit: 2, cursor: second.nextCursor });
    checkSameJson(
      third.sessions.map((summary) => summary.id),
      ['a'],
      'the last page',
    );
    check(third.nextCursor === undefined, 'the last page has no cursor');
    const summary = first.sessions[0];
    check(
      summary?.status === 'idle' && summary.version === 1 && summary.metadata.title === 'sample',
      'a summary carries status, version and metadata',
    );
  },

  async 'appends with consecutive seqs and reads from a seq'(store) {
    await store.save(newSessionState({ id: 'log' }), { expectedVersion: 0 });
    const first = await store.append('log', sampleEvents('1'), { operationId: 'op-1' });
    checkSameJson(first, { firstSeq: 1, lastSeq: 4 }, 'the first append');
    const second = await store.append('log', sampleEvents('2'), { operationId: 'op-2' });
    checkSameJson(second, { firstSeq: 5, lastSeq: 8 }, 'the second append');
    const all = await store.read('log');
    checkSameJson(
      all.map((record) => record.seq),
      [1, 2, 3, 4, 5, 6, 7, 8],
      'the seqs read',
    );
    checkSameJson(
      all.slice(4).map((record) => record.event),
      sampleEvents('2'),
      'the events read back',
    );
    check(all[0]?.operationId === 'op-1', 'a record carries its operation id');
    const tail = await store.read('log', { fromSeq: 7 });
    checkSameJson(
      tail.map((record) => record.seq),
      [7, 8],
      'reading from seq 7',
    );
    check((await store.read('log', { fromSeq: 9 })).length === 0, 'reading past the end gives nothing');
  },

  async 'an append retried with the same operation id leaves exactly one copy'(store) {
    await store.save(newSessionState({ id: 'retry' }), { expectedVersion: 0 });
    const first = await store.append('retry', sampleEvents('1'), { operationId: 'op-same' });
    const again = await store.append('retry', sampleEvents('1'), { operationId: 'op-same' });
    checkSameJson(again, first, 'the retried append answers with the first seqs');
    check((await store.read('retry')).length === 4, 'the log holds one copy');
  },

  async 'concurrent appends from one process never interleave and lose nothing'(store) {
    await store.save(newSessionState({ id: 'concurrent' }), { expectedVersion: 0 });
    const appends = Array.from({ length: 20 }, (_, index) =>
      store.append('concurrent', sampleEvents(String(index)), { operationId: `op-${index}` }),
    );
    const ranges = await Promise.all(appends);
    const records = await store.read('concurrent');
    checkSameJson(
      records.map((record) => record.seq),
      Array.from({ length: 80 }, (_, index) => index + 1),
      'the seqs after concurrent appends',
    );
    for (const [index, range] of ranges.entries()) {
      const mine = records.slice(range.firstSeq - 1, range.lastSeq);
      check(
        mine.length === 4 && mine.every((record: SessionLogRecord) => record.operationId === `op-${index}`),
        `the entries of append ${index} should be contiguous`,
      );
    }
  },

  async 'deletes the snapshot and the log'(store) {
    await store.save(sampleSessionState('gone'), { expectedVersion: 0 });
    await store.append('gone', sampleEvents('1'), { operationId: 'op' });
    await store.save(sampleSessionState('stays'), { expectedVersion: 0 });
    check((await store.delete('gone')) === true, 'deleting a stored session resolves true');
    await checkRejects(() => store.load('gone'), 'session_not_found', 'loading a deleted session');
    await checkRejects(() => store.read('gone'), 'session_not_found', 'reading a deleted log');
    checkSameJson(
      (await store.list()).sessions.map((summary) => summary.id),
      ['stays'],
      'the list after delete',
    );
    await store.save(newSessionState({ id: 'gone' }), { expectedVersion: 0 });
    check(
      (await store.read('gone')).length === 0,
      'a session created again under a deleted id has an empty log',
    );
  },
};
