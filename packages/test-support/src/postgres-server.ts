import { startTestServer, type TestServer } from '@agent-core/test-postgres';
import { afterAll, afterEach, beforeAll } from 'vitest';

/** What a test file works with: its server, and `track` to close a store after each test. */
export interface PostgresTestFile {
  /** The file's server; its fields can be read once the file's tests have begun. */
  readonly server: TestServer;
  /** Closes `store` after the current test, whatever the test's outcome; returns it. */
  track<Store extends { close(): Promise<void> }>(store: Store): Store;
}

/**
 * Starts one PostgreSQL server before a test file's tests and stops it after them, and closes
 * every tracked store after each test. Call it at the top of the file; `embedded` as for
 * `startTestServer` (a file that stops the server needs its own); `startTimeoutMs` where a start may
 * take longer than the file's hook timeout.
 */
export function usePostgresServer(
  options: { embedded?: boolean; startTimeoutMs?: number } = {},
): PostgresTestFile {
  let started: TestServer | undefined;
  const opened: { close(): Promise<void> }[] = [];
  const current = (): TestServer => {
    if (started === undefined)
      throw new Error('the test server is started in beforeAll: use it inside a test');
    return started;
  };
  beforeAll(async () => {
    started = await startTestServer({ embedded: options.embedded });
  }, options.startTimeoutMs);
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
  });
  afterAll(async () => {
    await started?.stop();
  });
  const server: TestServer = {
    get url() {
      return current().url;
    },
    get admin() {
      return current().admin;
    },
    newSchema: () => current().newSchema(),
    halt: () => current().halt(),
    resume: () => current().resume(),
    stop: () => current().stop(),
  };
  return {
    server,
    track(store) {
      opened.push(store);
      return store;
    },
  };
}
