import { ConfigError, type Logger } from '@agent-core/core';
import type { PostgresPool } from './postgres-pool.js';

/** Options of `new PostgresSessionStore(...)`: exactly one of `connectionString` and `pool`. */
export interface PostgresSessionStoreOptions {
  /**
   * Where the sessions live, e.g. `postgres://agent:secret@db.internal:5432/agents`.
   * The store opens a pool of its own on first use and ends it on `close()`.
   */
  connectionString?: string;
  /** A `pg` pool of yours to use instead; the store never ends it. */
  pool?: PostgresPool;
  /** The PostgreSQL schema of the tables (created if missing). Default `public`. */
  schema?: string;
  /**
   * How long a run lease lasts without renewal; the holder renews it every
   * third of this, so a process that stopped (a crash, a kill) holds its
   * sessions at most this long. Times are the server's. 0 makes leases that
   * expire at once and are never renewed (for tests of a stopped holder).
   * Default 30 000.
   */
  leaseDurationMs?: number;
  /** Create or upgrade the tables on first use (under an advisory lock). With false, run `migrate()` first. Default true. */
  autoMigrate?: boolean;
  /** Connections of the store's own pool. Default 10. */
  maxConnections?: number;
  /** `statement_timeout` of the store's own connections. Default 15 000. */
  statementTimeoutMs?: number;
  /** `idle_in_transaction_session_timeout` of the store's own connections. Default 15 000. */
  idleInTransactionTimeoutMs?: number;
  /** How long the store's own pool waits for a connection. Default 5 000. */
  connectionTimeoutMs?: number;
  /** Warnings (a dropped idle connection, a lease taken over) go here, never with the password. Default: silent. */
  logger?: Logger;
}

/** The options with their defaults, checked. */
export interface CheckedStoreOptions {
  connectionString: string | undefined;
  pool: PostgresPool | undefined;
  schema: string;
  leaseDurationMs: number;
  autoMigrate: boolean;
  maxConnections: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  connectionTimeoutMs: number;
}

/** The options `new PostgresSessionStore(...)` takes, for naming them when one is unknown. */
const optionNames = [
  'connectionString',
  'pool',
  'schema',
  'leaseDurationMs',
  'autoMigrate',
  'maxConnections',
  'statementTimeoutMs',
  'idleInTransactionTimeoutMs',
  'connectionTimeoutMs',
  'logger',
];

/** Checks the options at construction, naming the option and what it takes; never quotes the connection string. */
export function checkStoreOptions(options: PostgresSessionStoreOptions): CheckedStoreOptions {
  if (options === null || typeof options !== 'object') {
    throw new ConfigError(
      "PostgresSessionStore needs options: new PostgresSessionStore({ connectionString: 'postgres://user:password@host:5432/database' }) or { pool }.",
    );
  }
  const unknown = Object.keys(options).filter((name) => !optionNames.includes(name));
  if (unknown.length > 0)
    throw new ConfigError(
      `PostgresSessionStore has no option ${unknown.map((name) => `'${name}'`).join(', ')}; its options are ${optionNames.join(', ')}.`,
    );
  const { connectionString, pool } = options;
  if ((connectionString === undefined) === (pool === undefined)) {
    throw new ConfigError(
      'PostgresSessionStore needs exactly one of connectionString (the store opens and closes its own pool) or pool (yours, left open).',
    );
  }
  if (connectionString !== undefined) checkConnectionString(connectionString);
  if (
    pool !== undefined &&
    (typeof pool?.query !== 'function' ||
      typeof pool.connect !== 'function' ||
      typeof pool.on !== 'function' ||
      typeof pool.removeListener !== 'function')
  ) {
    throw new ConfigError(
      'PostgresSessionStore pool must be a pg Pool (new Pool(...) from the pg package), or one with its query, connect, on and removeListener.',
    );
  }
  if (options.autoMigrate !== undefined && typeof options.autoMigrate !== 'boolean')
    throw new ConfigError(
      `PostgresSessionStore autoMigrate must be true (create or upgrade the tables on first use) or false (run migrate() first), got a ${typeof options.autoMigrate}.`,
    );
  const logger = options.logger as Partial<Logger> | null | undefined;
  if (
    logger !== undefined &&
    (typeof logger !== 'object' ||
      logger === null ||
      (['debug', 'info', 'warn', 'error'] as const).some((level) => typeof logger[level] !== 'function'))
  )
    throw new ConfigError(
      `PostgresSessionStore logger must be a Logger (debug, info, warn and error functions), such as stderrLogger('warn') from @agent-core/core; got ${logger === null ? 'null' : `a ${typeof logger}`}.`,
    );
  return {
    connectionString,
    pool,
    schema: options.schema ?? 'public',
    leaseDurationMs: wholeNumber('leaseDurationMs', options.leaseDurationMs, 30_000, 0),
    autoMigrate: options.autoMigrate ?? true,
    maxConnections: wholeNumber('maxConnections', options.maxConnections, 10, 1),
    statementTimeoutMs: wholeNumber('statementTimeoutMs', options.statementTimeoutMs, 15_000, 1),
    idleInTransactionTimeoutMs: wholeNumber(
      'idleInTransactionTimeoutMs',
      options.idleInTransactionTimeoutMs,
      15_000,
      1,
    ),
    connectionTimeoutMs: wholeNumber('connectionTimeoutMs', options.connectionTimeoutMs, 5_000, 1),
  };
}

/** Throws `ConfigError` unless `value` is a postgres:// or postgresql:// URL; never quotes it (it holds the password). */
export function checkConnectionString(value: unknown, owner = 'PostgresSessionStore'): void {
  let protocol: string | undefined;
  try {
    protocol = typeof value === 'string' ? new URL(value).protocol : undefined;
  } catch {
    protocol = undefined;
  }
  // The value itself is never quoted: it holds the password.
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new ConfigError(
      `${owner} connectionString must be a postgres:// or postgresql:// URL, e.g. postgres://user:password@host:5432/database (special characters in the password percent-encoded).`,
    );
  }
}

function wholeNumber(name: string, value: number | undefined, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < minimum) {
    throw new ConfigError(
      `PostgresSessionStore ${name} must be a whole number >= ${minimum}, or left out for ${fallback.toLocaleString('en-US')}; got ${typeof value === 'number' ? String(value) : `a ${typeof value}`}.`,
    );
  }
  return value;
}

/** Removes the connection string's password from text that may quote it (a driver's message). */
export function passwordScrubber(source: {
  connectionString?: string | undefined;
  pool?: PostgresPool | undefined;
}): (text: string) => string {
  const options = (source.pool as { options?: Record<string, unknown> } | undefined)?.options;
  const passwords = new Set<string>();
  if (typeof options?.password === 'string') passwords.add(options.password);
  for (const url of [source.connectionString, options?.connectionString]) {
    try {
      if (typeof url === 'string') passwords.add(decodeURIComponent(new URL(url).password));
    } catch {}
  }
  passwords.delete('');
  if (passwords.size === 0) return (text) => text;
  return (text) => {
    let scrubbed = text;
    for (const password of passwords) scrubbed = scrubbed.split(password).join('***');
    return scrubbed;
  };
}
