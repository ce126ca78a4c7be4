import type { SaveSessionOptions } from '../session/session-store.js';
import { newSessionState } from '../session/session-state.js';
import { check, checkRejects, checkSameJson } from './assertions.js';
import type { StoreCheck } from './lease-checks.js';
import { sampleEvents } from './session-fixtures.js';

/** The store's method called with options it must refuse: cast, as a caller without types would pass them. */
const unchecked = (options: unknown) => options as SaveSessionOptions & { operationId: string };

/** The checks of what every store does with call options that could not mean anything: `ConfigError`, nothing written. */
export const callOptionChecks: Record<string, StoreCheck> = {
  async 'refuses a save without a whole expectedVersion with ConfigError, writing nothing'(store) {
    for (const options of [
      undefined,
      {},
      { expectedVersion: '0' },
      { expectedVersion: -1 },
      { expectedVersion: 0.5 },
    ]) {
      const error = await checkRejects(
        () => store.save(newSessionState({ id: 'unsaved' }), unchecked(options)),
        'invalid_config',
        `saving with options ${JSON.stringify(options)}`,
      );
      check(
        error.message.includes('expectedVersion'),
        `the refusal should name expectedVersion, got: ${error.message}`,
      );
    }
    await checkRejects(
      () => store.load('unsaved'),
      'session_not_found',
      'loading a session whose saves were refused',
    );
  },

  async 'refuses an append without an operationId with ConfigError, writing nothing'(store) {
    await store.save(newSessionState({ id: 'no-operation' }), { expectedVersion: 0 });
    for (const options of [
      undefined,
      {},
      { operationId: '' },
      { operationId: 7 },
      { operationId: 'a\u0000b' },
    ]) {
      const error = await checkRejects(
        () => store.append('no-operation', sampleEvents('x'), unchecked(options)),
        'invalid_config',
        `appending with options ${JSON.stringify(options)}`,
      );
      check(
        error.message.includes('operationId'),
        `the refusal should name operationId, got: ${error.message}`,
      );
    }
    check((await store.read('no-operation')).length === 0, 'refused appends write nothing');
    // The log a refused append left is whole: the next append and a load read it.
    await store.append('no-operation', sampleEvents('y'), { operationId: 'op-y' });
    checkSameJson(
      (await store.read('no-operation')).map((record) => record.seq),
      [1, 2, 3, 4],
      'the seqs after refused appends',
    );
  },

  async "refuses list's limit that is not a number and a cursor no page gave with ConfigError"(store) {
    await store.save(newSessionState({ id: 'listed' }), { expectedVersion: 0 });
    for (const options of [
      { limit: 'ten' },
      { limit: Number.NaN },
      { cursor: 7 },
      { cursor: 'not a cursor' },
    ]) {
      const error = await checkRejects(
        () => store.list(options as never),
        'invalid_config',
        `listing with ${String(Object.keys(options)[0])} ${String(Object.values(options)[0])}`,
      );
      check(
        error.message.includes(Object.keys(options)[0] as string),
        `the refusal should name the option, got: ${error.message}`,
      );
    }
    check((await store.list({ limit: 1 })).sessions.length === 1, 'a good limit still lists');
  },
};
