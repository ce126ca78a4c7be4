import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentError, newSessionState } from '@agent-core/core';
import { describe, expect, it } from 'vitest';
import { FileSessionStore, type FileSessionStoreOptions } from './file-session-store.js';
import { nodeFileOperations } from './file-operations.js';
import { useTemporaryRoots } from './test-support/temporary-roots.js';

const temporaryRoot = useTemporaryRoots('store-file-options-');

/** The error `new FileSessionStore(options)` throws; fails the test when it is not an AgentError. */
function refusal(options: unknown): AgentError {
  try {
    new FileSessionStore(options as FileSessionStoreOptions);
  } catch (error) {
    if (AgentError.isInstance(error)) return error;
    throw new Error(`expected an AgentError, got ${String(error)}`);
  }
  throw new Error('expected the options to be refused');
}

describe('FileSessionStore options', () => {
  it('every bad option is a ConfigError naming the option and what it takes', () => {
    const cases: [unknown, RegExp][] = [
      [
        undefined,
        /FileSessionStore needs options with a root folder, e\.g\. new FileSessionStore\(\{ root: .*got nothing/,
      ],
      ['/tmp/sessions', /needs options with a root folder.*got a string/],
      [{}, /FileSessionStore needs root, the folder that holds the sessions.*got nothing/],
      [{ root: '' }, /needs root.*got an empty string/],
      [{ root: 42 }, /needs root.*got number 42/],
      [
        { rootDir: '/tmp/sessions' },
        /FileSessionStore has no option 'rootDir'; its options are root, logger, operations, lockTimeoutMs, leaseStaleMs, processId/,
      ],
      [
        { root: '/tmp/x', lockTimeoutMs: '1000' },
        /lockTimeoutMs must be a number of milliseconds >= 0 .*got a string/,
      ],
      [
        { root: '/tmp/x', lockTimeoutMs: -1 },
        /lockTimeoutMs must be a number of milliseconds >= 0.*got number -1/,
      ],
      [
        { root: '/tmp/x', leaseStaleMs: 0 },
        /leaseStaleMs must be a number of milliseconds > 0, finite.*left out for 30,000; got number 0/,
      ],
      [
        { root: '/tmp/x', leaseStaleMs: Number.POSITIVE_INFINITY },
        /leaseStaleMs must be .*got number Infinity/,
      ],
      [
        { root: '/tmp/x', processId: '12' },
        /processId must be a positive whole number \(a pid\).*got a string/,
      ],
      [
        { root: '/tmp/x', logger: console.log },
        /logger must be a Logger \(debug, info, warn and error functions\).*got a function/,
      ],
      [
        { root: '/tmp/x', operations: [] },
        /operations must be an object of file system functions.*got an array/,
      ],
      [
        { root: '/tmp/x', operations: { writeFile: async () => {} } },
        /operations has no operation 'writeFile'; the operations are readFile, /,
      ],
      [
        { root: '/tmp/x', operations: { append: 'fs.appendFile' } },
        /operations\.append must be a function; got a string/,
      ],
    ];
    for (const [options, message] of cases) {
      const error = refusal(options);
      expect(error.name).toBe('ConfigError');
      expect(error.code).toBe('invalid_config');
      expect(error.message).toMatch(message);
    }
  });

  it('good options make a store that works, and nothing is created before the first save', async () => {
    const root = await temporaryRoot();
    const store = new FileSessionStore({
      root: join(root, 'sessions'),
      lockTimeoutMs: Number.POSITIVE_INFINITY,
      leaseStaleMs: 1_000,
      processId: process.pid,
      operations: { append: nodeFileOperations.append },
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    expect(await readdir(root)).toEqual([]);
    await store.save(newSessionState({ id: 's' }), { expectedVersion: 0 });
    expect((await store.load('s')).version).toBe(1);
  });
});
