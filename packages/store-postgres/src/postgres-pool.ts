/** One statement for the pool: its text, its `$1`… values, and optionally a name to prepare it under. */
export interface PostgresQuery {
  text: string;
  values?: unknown[];
  name?: string;
}

/** What a statement gives back: its rows, each a record of column values. */
export interface PostgresQueryResult {
  rows: Record<string, unknown>[];
}

/** A connection checked out of the pool, for a transaction; `release` gives it back. */
export interface PostgresPoolClient {
  query(query: PostgresQuery): Promise<PostgresQueryResult>;
  /** Gives the connection back; with an error, the pool closes it instead of reusing it. */
  release(error?: Error | boolean): void;
}

/**
 * The parts of a `pg` pool the store uses. A `new Pool(...)` from `pg` fits,
 * as does any pool with the same methods. The store adds an `error` listener
 * (so a connection the server drops while idle never crashes the process) and
 * removes it on `close()`, and never ends a pool it was given.
 */
export interface PostgresPool {
  query(query: PostgresQuery): Promise<PostgresQueryResult>;
  connect(): Promise<PostgresPoolClient>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
  end(): Promise<void>;
}

/** What the store needs to open a pool of its own. */
export interface OwnPoolSettings {
  connectionString: string;
  maxConnections: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  connectionTimeoutMs: number;
}

/**
 * Opens a `pg` pool. `pg` is imported here, on first use, so importing this
 * package loads no driver. Every connection starts with `statement_timeout`
 * and `idle_in_transaction_session_timeout` set, so a stuck statement or a
 * transaction a crashed client left open never holds a session's row for long.
 */
export async function openPool(settings: OwnPoolSettings): Promise<PostgresPool> {
  const { default: pg } = await import('pg');
  return new pg.Pool({
    connectionString: settings.connectionString,
    max: settings.maxConnections,
    connectionTimeoutMillis: settings.connectionTimeoutMs,
    idleTimeoutMillis: 10_000,
    statement_timeout: settings.statementTimeoutMs,
    idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs,
    // A server that stops answering mid-statement (a network cut) ends the call a little after the server-side timeout would.
    query_timeout: settings.statementTimeoutMs + 5_000,
    application_name: 'agent-core',
    keepAlive: true,
  });
}

/** The size of a pool, when it says: `pg` pools keep it in `options.max`. */
export function poolSize(pool: PostgresPool): number | undefined {
  const max = (pool as { options?: { max?: unknown } }).options?.max;
  return typeof max === 'number' && Number.isFinite(max) && max > 0 ? max : undefined;
}

/**
 * A description of where sessions live, for error messages: user, host,
 * port, database and schema, never the password. Built from the connection
 * string, or from a `pg` pool's options.
 */
export function describeTarget(
  source: { connectionString?: string; pool?: PostgresPool },
  schema: string,
): string {
  const options = (source.pool as { options?: Record<string, unknown> } | undefined)?.options;
  const connectionString =
    source.connectionString ??
    (typeof options?.connectionString === 'string' ? options.connectionString : undefined);
  let server = 'the PostgreSQL server of the given pool';
  if (connectionString !== undefined) {
    try {
      const url = new URL(connectionString);
      const user = url.username === '' ? '' : `${decodeURIComponent(url.username)}@`;
      server = `postgres://${user}${url.host}${url.pathname}`;
    } catch {
      server = 'the PostgreSQL server of the connection string';
    }
  } else if (options !== undefined) {
    const user = typeof options.user === 'string' ? `${options.user}@` : '';
    const host = typeof options.host === 'string' ? options.host : 'localhost';
    const port = options.port === undefined ? '' : `:${String(options.port)}`;
    const database = typeof options.database === 'string' ? `/${options.database}` : '';
    server = `postgres://${user}${host}${port}${database}`;
  }
  return `${server} (schema ${schema})`;
}
