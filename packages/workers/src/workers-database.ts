import { ConfigError } from '@agent-core/core';
import type { Pool, PoolClient } from 'pg';
import { QueueStorageError } from './queue-storage-error.js';
import { checkTables, migrateTables } from './worker-tables.js';

/** Where the run queue lives: one of `connectionString` and `pool`, and a schema. */
export interface WorkersConnectionOptions {
  /** `postgres://` or `postgresql://` URL; the queue opens a `pg` pool of its own, ended by `close()`. */
  connectionString?: string;
  /** A `pg` pool of yours; never ended by the queue. */
  pool?: Pool;
  /** The PostgreSQL schema of the job tables (graphile-worker's and this package's). Default `agent_core_workers`. */
  schema?: string;
  /** Create or upgrade the tables on first use. Default true; with false, run `migrateWorkers()` first. */
  autoMigrate?: boolean;
  /** Connections of the queue's own pool. Default 10. */
  maxConnections?: number;
}

const schemaPattern = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

/** The rows of a statement. */
export type Rows = Record<string, unknown>[];

/**
 * The run queue's way to its database: opens the pool on first use (importing
 * the package loads no driver), creates or checks the tables once, and turns
 * driver failures into `QueueStorageError`s that never quote a password.
 */
export class WorkersDatabase {
  readonly schema: string;
  /** The schema, quoted for SQL. */
  readonly quoted: string;
  /** The server and schema, for messages: never the password. */
  readonly where: string;
  readonly #options: WorkersConnectionOptions;
  #opening: Promise<Pool> | undefined;
  #raw: Promise<Pool> | undefined;
  #closed = false;
  readonly #onError = (): void => {};
  /** Every connection gets an `error` listener: one the server drops while it is checked out must not crash the process. */
  readonly #onConnect = (client: PoolClient): void => {
    client.on('error', this.#onError);
  };

  constructor(options: WorkersConnectionOptions, owner: string) {
    checkConnectionOptions(options, owner);
    this.#options = options;
    this.schema = options.schema ?? 'agent_core_workers';
    this.quoted = `"${this.schema}"`;
    this.where = `${describeServer(options)} (schema ${this.schema})`;
  }

  /** The pool, opened and with its tables ready. */
  pool(): Promise<Pool> {
    if (this.#closed)
      return Promise.reject(new ConfigError(`The run queue of ${this.where} is closed; make a new one.`));
    this.#opening ??= this.#open().catch((error: unknown) => {
      this.#opening = undefined;
      throw error;
    });
    return this.#opening;
  }

  /** The pool, opened but with no look at the tables (for `migrateWorkers`). */
  rawPool(): Promise<Pool> {
    this.#raw ??= this.#openPool();
    return this.#raw;
  }

  async #openPool(): Promise<Pool> {
    const given = this.#options.pool;
    let pool: Pool;
    if (given !== undefined) pool = given;
    else {
      const { default: pg } = await import('pg');
      pool = new pg.Pool({
        connectionString: this.#options.connectionString,
        max: this.#options.maxConnections ?? 10,
        connectionTimeoutMillis: 5_000,
        idleTimeoutMillis: 10_000,
        application_name: 'agent-core-workers',
        keepAlive: true,
      });
    }
    // A connection the server drops while idle must not crash the process; the next call gets a fresh one.
    pool.on('error', this.#onError);
    pool.on('connect', this.#onConnect);
    return pool;
  }

  async #open(): Promise<Pool> {
    const pool = await this.rawPool();
    try {
      if (this.#options.autoMigrate === false) await checkTables(pool, this.schema, this.where);
      else await migrateTables(pool, this.schema);
    } catch (error) {
      throw this.failure(error, 'could not be prepared');
    }
    return pool;
  }

  /** Runs one statement. */
  async query(text: string, values: unknown[] = []): Promise<Rows> {
    const pool = await this.pool();
    try {
      return (await pool.query(text, values)).rows as Rows;
    } catch (error) {
      throw this.failure(error, 'refused a statement');
    }
  }

  /** Runs `work` in one transaction on one connection: committed if it resolves, rolled back if it throws. */
  async transaction<Result>(work: (client: PoolClient) => Promise<Result>): Promise<Result> {
    const pool = await this.pool();
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw this.failure(error, 'could not be reached');
    }
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollback: unknown) => {
        broken = rollback instanceof Error ? rollback : new Error(String(rollback));
      });
      throw this.failure(error, 'refused a transaction');
    } finally {
      client.release(broken);
    }
  }

  /** A connection of its own, for LISTEN or advisory locks; the caller releases it. */
  async connect(): Promise<PoolClient> {
    const pool = await this.pool();
    try {
      return await pool.connect();
    } catch (error) {
      throw this.failure(error, 'could not be reached');
    }
  }

  /** Wraps a driver failure; agent-core errors pass through as they are. */
  failure(error: unknown, what: string): Error {
    if (isAgentError(error)) return error;
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : String(error);
    const retryable =
      (typeof code === 'string' && (/^(08|57P0)/.test(code) || code === '53300' || /^E[A-Z]+$/.test(code))) ||
      /Connection terminated|connection error|timeout exceeded when trying to connect|Client was closed/i.test(
        message,
      );
    return new QueueStorageError(this.where, `${what}: ${scrub(message, this.#options)}`, {
      retryable,
      cause: error,
    });
  }

  /** Ends the pool if the queue opened it; later calls reject with `ConfigError`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const opening = this.#raw;
    if (opening === undefined) return;
    const pool = await opening.catch(() => undefined);
    if (pool === undefined) return;
    if (this.#options.pool === undefined) {
      // The listeners stay: a connection still closing may yet report the server's goodbye as an error.
      await pool.end();
      return;
    }
    pool.removeListener('error', this.#onError);
    pool.removeListener('connect', this.#onConnect);
  }
}

function isAgentError(error: unknown): error is Error {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[Symbol.for('agent-core.error')] === true
  );
}

/** Throws `ConfigError` for connection options the queue cannot use. */
function checkConnectionOptions(options: WorkersConnectionOptions, owner: string): void {
  const given = options as Partial<WorkersConnectionOptions> | undefined;
  const hasUrl = given?.connectionString !== undefined;
  const hasPool = given?.pool !== undefined;
  if (hasUrl === hasPool)
    throw new ConfigError(
      `${owner} needs exactly one of connectionString (a postgres:// URL) and pool (a pg Pool); ${hasUrl ? 'both were' : 'neither was'} given.`,
    );
  if (hasUrl && !/^postgres(ql)?:\/\//.test(String(given?.connectionString)))
    throw new ConfigError(`${owner}: connectionString must be a postgres:// or postgresql:// URL.`);
  if (given?.schema !== undefined && !schemaPattern.test(given.schema))
    throw new ConfigError(
      `${owner}: schema '${given.schema}' is not a plain name: use letters, digits and _ (at most 40), starting with a letter or _.`,
    );
  if (
    given?.maxConnections !== undefined &&
    (!Number.isInteger(given.maxConnections) || given.maxConnections < 2)
  )
    throw new ConfigError(`${owner}: maxConnections must be an integer of at least 2.`);
}

/** `postgres://user@host:port/database`, from the URL or the pool's options, never with its password. */
function describeServer(options: WorkersConnectionOptions): string {
  if (options.connectionString !== undefined) {
    try {
      const url = new URL(options.connectionString);
      const user = url.username === '' ? '' : `${decodeURIComponent(url.username)}@`;
      return `postgres://${user}${url.host}${url.pathname}`;
    } catch {
      return 'the PostgreSQL server';
    }
  }
  const settings = (options.pool as { options?: Record<string, unknown> } | undefined)?.options ?? {};
  const user = typeof settings.user === 'string' ? `${settings.user}@` : '';
  const host = typeof settings.host === 'string' ? settings.host : 'localhost';
  const port = settings.port === undefined ? '' : `:${String(settings.port)}`;
  const database = typeof settings.database === 'string' ? `/${settings.database}` : '';
  return `postgres://${user}${host}${port}${database}`;
}

/** Removes the password from a driver's message, should it quote the connection string. */
function scrub(message: string, options: WorkersConnectionOptions): string {
  if (options.connectionString === undefined) return message;
  try {
    const password = decodeURIComponent(new URL(options.connectionString).password);
    return password === '' ? message : message.split(password).join('***');
  } catch {
    return message;
  }
}
