import { AgentError, newSessionState } from '@agent-core/core';
import { quietPool, startTestServer, type TestServer } from '@agent-core/test-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from './migrate.js';
import { PostgresSessionStore } from './postgres-session-store.js';

// An embedded server of our own, never AGENT_CORE_PG_URL's: these tests need its password login (scram-sha-256).
let server: TestServer;
let password: string;
const saved: Record<string, string | undefined> = {};
const variables = ['PGUSER', 'PGPASSWORD', 'PGDATABASE'];

beforeAll(async () => {
  // pg falls back to these: the cases below are about what the connection string gives.
  for (const name of variables) {
    saved[name] = process.env[name];
    delete process.env[name];
  }
  server = await startTestServer({ embedded: true });
  password = decodeURIComponent(new URL(server.url).password);
  await server.admin.query("CREATE ROLE barred PASSWORD 'barred-secret'");
  await server.admin.query("CREATE ROLE limited LOGIN PASSWORD 'limited-secret'");
  await server.admin.query('CREATE DATABASE closed');
  await server.admin.query('REVOKE CONNECT ON DATABASE closed FROM PUBLIC');
});
afterAll(async () => {
  await server?.stop();
  for (const name of variables) if (saved[name] !== undefined) process.env[name] = saved[name];
});

/** The server's URL with `change` applied. */
function url(change: (target: URL) => void): string {
  const target = new URL(server.url);
  change(target);
  return target.toString();
}

/** The error a first call of a store on `connectionString` rejects with; the store is closed after. */
async function loginError(connectionString: string): Promise<AgentError> {
  const store = new PostgresSessionStore({ connectionString, connectionTimeoutMs: 10_000 });
  try {
    await store.save(newSessionState({ id: 'never' }), { expectedVersion: 0 });
  } catch (error) {
    if (AgentError.isInstance(error)) return error;
    throw error;
  } finally {
    await store.close();
  }
  throw new Error('expected the login to be refused');
}

/** Checks what every refused login has in common: the code, no retry, no password, and the server named. */
function expectRefused(error: AgentError, secrets: string[]): void {
  expect(error.name).toBe('SessionStorageError');
  expect(error.code).toBe('session_storage_auth');
  expect((error as { retryable?: boolean }).retryable).toBe(false);
  expect(error.message).toMatch(/^Could not write or read postgres:\/\/.*127\.0\.0\.1:\d+\//);
  expect(error.message).toContain('Fix the credentials the store logs in with');
  expect(error.message).not.toContain('Check the location');
  for (const secret of secrets) expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(secret);
}

describe('a PostgreSQL login the server refuses says which credential is wrong or missing', () => {
  it('a wrong password, or a user that does not exist: the password of that user, never its value', async () => {
    const wrong = await loginError(url((target) => (target.password = 'not-the-password-4')));
    expectRefused(wrong, ['not-the-password-4', password]);
    expect(wrong.message).toContain(
      'the server refused the password of user "postgres" (28P01): the password is wrong, or no such user exists. Check the user and the password in the connection string (or PGUSER and PGPASSWORD)',
    );
    const nobody = await loginError(url((target) => (target.username = 'nobody')));
    expectRefused(nobody, [password]);
    expect(nobody.message).toContain('the server refused the password of user "nobody" (28P01)');
  });

  it('no password, or an empty one: the server asks for one, and the error says where to put it', async () => {
    const none = await loginError(url((target) => (target.password = '')));
    expectRefused(none, [password]);
    expect(none.message).toContain(
      'the server asks for the password of user "postgres", and none is given: put it in the connection string (postgres://user:password@host:5432/database, percent-encoded) or in PGPASSWORD',
    );
    const empty = await loginError(server.url.replace(`:${encodeURIComponent(password)}@`, ':@'));
    expectRefused(empty, [password]);
    expect(empty.message).toContain(
      'the server asks for the password of user "postgres", and the password given is empty',
    );
  });

  it('no user: the error says the connection string names none', async () => {
    const error = await loginError(url((target) => (target.username = '')));
    expectRefused(error, [password]);
    // The driver takes the system's login name when there is one, and sends no user when there is none.
    expect(error.message).toMatch(
      /the connection string names no user, so the driver took the system's login name|no user is given \(28000\): name one in the connection string/,
    );
  });

  it('a database that does not exist, and one the user may not connect to', async () => {
    const missing = await loginError(url((target) => (target.pathname = '/nowhere')));
    expectRefused(missing, [password]);
    expect(missing.message).toContain(
      'the database "nowhere" does not exist on the server (3D000): check the database name in the connection string',
    );
    const closed = await loginError(
      url((target) => {
        target.username = 'limited';
        target.password = 'limited-secret';
        target.pathname = '/closed';
      }),
    );
    expectRefused(closed, ['limited-secret']);
    expect(closed.message).toContain('user "limited" may not connect to database "closed" (42501)');
  });

  it('a role that may not log in', async () => {
    const error = await loginError(
      url((target) => {
        target.username = 'barred';
        target.password = 'barred-secret';
      }),
    );
    expectRefused(error, ['barred-secret']);
    expect(error.message).toContain('user "barred" may not log in (28000, a role without LOGIN)');
  });

  it('a pool of yours says to fix its settings; migrate says the same; good credentials then work', async () => {
    const pool = quietPool(url((target) => (target.password = 'pool-secret-5')));
    try {
      const store = new PostgresSessionStore({ pool });
      const error = await store.load('any').then(
        () => {
          throw new Error('expected the login to be refused');
        },
        (caught: unknown) => caught as AgentError,
      );
      await store.close();
      expectRefused(error, ['pool-secret-5', password]);
      expect(error.message).toContain("Check the user and the password in the pool's settings");
    } finally {
      await pool.end();
    }
    const migration = await migrate({
      connectionString: url((target) => (target.password = 'migrate-secret-6')),
    }).then(
      () => {
        throw new Error('expected the login to be refused');
      },
      (caught: unknown) => caught as AgentError,
    );
    expectRefused(migration, ['migrate-secret-6', password]);
    expect(migration.message).toContain('the server refused the password of user "postgres" (28P01)');
    const store = new PostgresSessionStore({ connectionString: server.url, schema: server.newSchema() });
    await store.save(newSessionState({ id: 'fine' }), { expectedVersion: 0 });
    expect((await store.load('fine')).version).toBe(1);
    await store.close();
  });
});
