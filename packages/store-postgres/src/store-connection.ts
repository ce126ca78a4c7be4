import { type AgentError, ConfigError, type Logger } from '@agent-core/core';
import type { LoginSettings } from './login-problem.js';
import { runMigrations, schemaVersion } from './migrate.js';
import {
  type OwnPoolSettings,
  openPool,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQuery,
  type PostgresQueryResult,
} from './postgres-pool.js';
import { currentSchemaVersion } from './schema-migrations.js';
import { isConnectionFailure, storageErrorOf } from './storage-errors.js';

/** How a `StoreConnection` reaches its pool and schema. */
export interface StoreConnectionOptions {
  /** The caller's pool (never ended here), or the settings of one to open on first use (ended by `close()`). */
  pool: PostgresPool | OwnPoolSettings;
  schema: string;
  quotedSchema: string;
  where: string;
  /** Removes the password from text that may quote it. */
  scrub: (text: string) => string;
  autoMigrate: boolean;
  logger: Logger;
  /** The credentials it logs in with (never the password), so a refused login says which one is wrong. */
  login: LoginSettings;
}

/**
 * The store's way to the server: opens its pool on first use (so
 * constructing a store does no I/O and loads no driver), creates or checks
 * the schema once, listens for the pool's `error` events (a connection the
 * server drops while idle is logged, never thrown), runs statements and
 * transactions, and maps every failure onto core's typed errors.
 */
export class StoreConnection {
  readonly where: string;
  readonly #options: StoreConnectionOptions;
  readonly #given: PostgresPool | undefined;
  #pool: Promise<PostgresPool> | undefined;
  #ready: Promise<PostgresPool> | undefined;
  #closed = false;
  readonly #onError = (error: Error) => {
    if (this.#closed) return;
    this.#options.logger.warn(
      'a pooled PostgreSQL connection failed while idle; the pool opens another when needed',
      {
        where: this.where,
        error: this.#options.scrub(error.message),
      },
    );
  };

  constructor(options: StoreConnectionOptions) {
    this.#options = options;
    this.where = options.where;
    this.#given = 'query' in options.pool ? options.pool : undefined;
  }

  /** The pool, opened and its schema current: waits for the first migration, and tries again after a failed one. */
  ready(): Promise<PostgresPool> {
    if (this.#closed) return Promise.reject(closedError(this.where));
    this.#ready ??= this.#prepare().catch((error: unknown) => {
      this.#ready = undefined;
      throw this.fail(error);
    });
    return this.#ready;
  }

  async #prepare(): Promise<PostgresPool> {
    const pool = await this.#openPool();
    const { schema, quotedSchema, where } = this.#options;
    if (this.#options.autoMigrate) {
      await runMigrations(pool, schema, quotedSchema, where, (error) => this.fail(error));
      return pool;
    }
    const found = await schemaVersion(pool, quotedSchema);
    if (found !== currentSchemaVersion) {
      throw new ConfigError(
        `The tables in ${where} are at schema version ${found}, and this store needs ${currentSchemaVersion}. Run migrate({ connectionString, schema }) from @agent-core/store-postgres first, or pass autoMigrate: true.`,
      );
    }
    return pool;
  }

  #openPool(): Promise<PostgresPool> {
    this.#pool ??= (async () => {
      const pool = this.#given ?? (await openPool(this.#options.pool as OwnPoolSettings));
      pool.on('error', this.#onError);
      return pool;
    })();
    return this.#pool;
  }

  /**
   * Runs one statement. With `idempotent`, a statement whose connection
   * dropped is sent once more on a fresh one (the pool discards the broken
   * one), since running it twice changes nothing.
   */
  async query(query: PostgresQuery, options: { idempotent?: boolean } = {}): Promise<PostgresQueryResult> {
    const pool = await this.ready();
    try {
      return await pool.query(query);
    } catch (error) {
      if (options.idempotent !== true || !isConnectionFailure(error) || this.#closed) throw this.fail(error);
      try {
        return await pool.query(query);
      } catch (again) {
        throw this.fail(again);
      }
    }
  }

  /** Runs `body` in a transaction on one connection, committed when it resolves, rolled back when it throws. */
  async transaction<Value>(body: (client: PostgresPoolClient) => Promise<Value>): Promise<Value> {
    const pool = await this.ready();
    let client: PostgresPoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      throw this.fail(error);
    }
    let broken: Error | undefined;
    try {
      await client.query({ text: 'BEGIN' });
      const value = await body(client);
      await client.query({ text: 'COMMIT' });
      return value;
    } catch (error) {
      if (isConnectionFailure(error)) broken = error as Error;
      else
        await client.query({ text: 'ROLLBACK' }).catch((rollback: unknown) => (broken = rollback as Error));
      throw this.fail(error);
    } finally {
      client.release(broken);
    }
  }

  /** The typed error for a failure of this store's medium. */
  fail(error: unknown): AgentError {
    return storageErrorOf(error, this.where, this.#options.scrub, this.#options.login);
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Stops listening to the pool; ends it only if this connection opened it. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const opened = this.#pool;
    if (opened === undefined) return;
    const pool = await opened.catch(() => undefined);
    if (pool === undefined) return;
    // A pool's end() resolves before its sockets close: the listener of a pool this store opened stays, so a
    // connection the server drops in that moment is never an uncaught error. A caller's pool lives on without it.
    if (this.#given === undefined) await pool.end();
    else pool.removeListener('error', this.#onError);
  }
}

function closedError(where: string): ConfigError {
  return new ConfigError(
    `This PostgresSessionStore for ${where} was closed; make a new one to use the sessions again.`,
  );
}
