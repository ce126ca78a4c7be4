import type { SessionStore } from '../session/session-store.js';
import { newSessionState } from '../session/session-state.js';
import { check, checkRejects, checkSameJson } from './assertions.js';
import type { ConformanceOptions } from './session-store-conformance.js';
import { sampleEvents, sampleSessionState } from './session-fixtures.js';
import { runEvents } from './summary-checks.js';

/** One conformance check: a fresh store and the suite's options. */
export type StoreCheck = (store: SessionStore, options: ConformanceOptions) => Promise<void>;

async function other(store: SessionStore, options: ConformanceOptions): Promise<SessionStore> {
  return options.reopen === undefined ? store : options.reopen(store);
}

/** What holds between processes: checked with two handles when the suite can open a second one. */
export const crossProcessChecks: Record<string, StoreCheck> = {
  async 'two handles on the same data see each other: a save, an append and the summary'(store, options) {
    const second = await other(store, options);
    await store.save(newSessionState({ id: 'shared' }), { expectedVersion: 0 });
    await second.append(
      'shared',
      runEvents('r', [{ role: 'user', content: 'from the other handle' }], {
        reason: 'completed',
        startedAt: '2026-03-01T00:00:00.000Z',
        endedAt: '2026-03-01T00:00:01.000Z',
      }),
      { operationId: 'other' },
    );
    const records = await store.read('shared');
    checkSameJson(
      records.map((record) => record.seq),
      [1, 2, 3],
      'the seqs the first handle reads',
    );
    const listed = (await store.list()).sessions[0];
    check(
      listed?.messageCount === 1 && listed.title === 'from the other handle' && listed.status === 'idle',
      "the summary the first handle lists follows the other handle's append",
    );
    await checkRejects(
      () => second.save(newSessionState({ id: 'shared' }), { expectedVersion: 0 }),
      'session_conflict',
      'creating from the second handle a session the first one created',
    );
  },
};

/** The checks of `lease`, for stores that several processes share. */
export const leaseChecks: Record<string, StoreCheck> = {
  async 'leases a session to one holder at a time; a released lease can be taken again'(store) {
    const lease = requireLease(store);
    await store.save(sampleSessionState('leased'), { expectedVersion: 0 });
    const held = await lease('leased');
    await checkRejects(() => lease('leased'), 'session_busy', 'a second lease while one is held');
    await held.release();
    await held.release();
    const again = await lease('leased');
    await again.release();
  },

  async 'a held lease leaves load, save, append and read free'(store) {
    const lease = requireLease(store);
    const state = sampleSessionState('busy');
    await store.save(state, { expectedVersion: 0 });
    const held = await lease('busy');
    try {
      await store.append('busy', sampleEvents('1'), { operationId: 'op' });
      check((await store.read('busy')).length > 0, 'the log is readable while leased');
      await store.save({ ...state, version: 1 }, { expectedVersion: 1 });
      check((await store.load('busy')).version === 2, 'the snapshot is saved while leased');
    } finally {
      await held.release();
    }
  },

  async 'processes take turns under the lease: busy for the other handle, one consecutive log'(
    store,
    options,
  ) {
    const second = await other(store, options);
    await store.save(newSessionState({ id: 'turns' }), { expectedVersion: 0 });
    const first = await requireLease(store)('turns');
    await checkRejects(
      () => requireLease(second)('turns'),
      'session_busy',
      'the other handle while it is held',
    );
    await store.append('turns', sampleEvents('1'), { operationId: 'one', lease: first });
    await first.release();
    const next = await requireLease(second)('turns');
    await second.append('turns', sampleEvents('2'), { operationId: 'two', lease: next });
    await next.release();
    checkSameJson(
      (await store.read('turns')).map((record) => `${record.seq}:${record.operationId}`),
      ['1:one', '2:one', '3:one', '4:one', '5:two', '6:two', '7:two', '8:two'],
      'the log written by both handles in turn',
    );
  },

  async 'a running session whose run holds no lease is listed interrupted, a leased one running'(store) {
    const lease = requireLease(store);
    for (const id of ['unheld', 'held']) await store.save(newSessionState({ id }), { expectedVersion: 0 });
    const started = [{ type: 'run_started' as const, runId: 'r', at: '2026-03-03T00:00:00.000Z' }];
    // Every run in core holds the lease: a run without one ended without its end written (a full disk, say).
    await store.append('unheld', started, { operationId: 'start' });
    const held = await lease('held');
    try {
      await store.append('held', started, { operationId: 'start', lease: held });
      const statuses = Object.fromEntries(
        (await store.list()).sessions.map((listed) => [listed.id, listed.status]),
      );
      checkSameJson(statuses, { unheld: 'interrupted', held: 'running' }, 'the statuses listed');
    } finally {
      await held.release();
    }
  },

  async 'refuses to lease a session never stored with SessionNotFoundError'(store) {
    await checkRejects(
      () => requireLease(store)('nobody'),
      'session_not_found',
      'leasing an unknown session',
    );
    await checkRejects(() => store.load('nobody'), 'session_not_found', 'loading it afterwards');
  },
};

function requireLease(store: SessionStore): NonNullable<SessionStore['lease']> {
  const lease = store.lease;
  if (lease === undefined)
    throw new Error('the store was registered with leases: true but has no lease method');
  return lease.bind(store);
}

/** Checks of a lease whose holder stopped: takeover, listing, and fencing of its late writes. */
export const stoppedHolderChecks: Record<string, StoreCheck> = {
  async 'a running session whose lease holder stopped is listed interrupted; a live holder, running'(
    store,
    options,
  ) {
    const lease = requireLease(store);
    await store.save(newSessionState({ id: 'alive' }), { expectedVersion: 0 });
    await store.save(newSessionState({ id: 'stopped' }), { expectedVersion: 0 });
    const started = (runId: string) => [
      { type: 'run_started' as const, runId, at: '2026-03-02T00:00:00.000Z' },
    ];
    const held = await lease('alive');
    const ghost = await (options.stoppedHolder as NonNullable<ConformanceOptions['stoppedHolder']>)(store);
    const stale = await requireLease(ghost)('stopped');
    try {
      await store.append('alive', started('a'), { operationId: 'a', lease: held });
      await ghost.append('stopped', started('s'), { operationId: 's', lease: stale });
      const statuses = Object.fromEntries(
        (await store.list()).sessions.map((listed) => [listed.id, listed.status]),
      );
      checkSameJson(statuses, { alive: 'running', stopped: 'interrupted' }, 'the statuses listed');
    } finally {
      await held.release();
    }
  },

  async "a lease whose holder stopped is taken over, and the old holder's writes are refused, even after release"(
    store,
    options,
  ) {
    await store.save(sampleSessionState('fenced'), { expectedVersion: 0 });
    const ghost = await (options.stoppedHolder as NonNullable<ConformanceOptions['stoppedHolder']>)(store);
    const stale = await requireLease(ghost)('fenced');
    await ghost.append('fenced', sampleEvents('before'), { operationId: 'before', lease: stale });
    const taken = await requireLease(store)('fenced');
    await store.append('fenced', sampleEvents('new'), { operationId: 'new', lease: taken });
    await checkRejects(
      () => ghost.append('fenced', sampleEvents('late'), { operationId: 'late', lease: stale }),
      'session_lease_lost',
      'an append under a lease another holder took over',
    );
    const loaded = await ghost.load('fenced');
    await checkRejects(
      () => ghost.save(loaded, { expectedVersion: loaded.version, lease: stale }),
      'session_lease_lost',
      'a save under a lease another holder took over',
    );
    await taken.release();
    await checkRejects(
      () => ghost.append('fenced', sampleEvents('later'), { operationId: 'later', lease: stale }),
      'session_lease_lost',
      'an append under the lost lease once the new holder released it',
    );
    checkSameJson(
      (await store.read('fenced')).map((record) => record.operationId),
      ['before', 'before', 'before', 'before', 'new', 'new', 'new', 'new'],
      "the log: the old holder's late writes are not in it",
    );
    check((await store.load('fenced')).version === 1, 'the refused save wrote nothing');
  },
};
