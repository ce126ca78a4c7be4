import { type AgentError, ConfigError } from '@agent-core/core';
import { describeTarget, openPool, type PostgresPool } from './postgres-pool.js';
import { currentSchemaVersion, schemaMigrations } from './schema-migrations.js';
import { quotedSchema, schemaLockKey } from './schema-name.js';
import { storageErrorOf } from './storage-errors.js';
import { checkConnectionString, passwordScrubber } from './store-options.js';
import { loginSettings } from './login-problem.js';

/** Options of `migrate`: where the schema goes, as for `new PostgresSessionStore(...)`. */
export interface MigrateOptions {
  /** A PostgreSQL connection string (`postgres://user:password@host:5432/database`); or give `pool`. */
  connectionString?: string;
  /** A `pg` pool to run on (left open); or give `connectionString`. */
  pool?: PostgresPool;
  /** The PostgreSQL schema the tables live in. Default `public`. */
  schema?: string;
}

/** What `migrate` did: the schema's version before and after. */
export interface MigrateResult {
  schema: string;
  from: number;
  to: number;
}

/** The first of the two advisory lock keys every agent-core migration takes ('agnt'). */
const lockNamespace = 0x61676e74;

/**
 * Creates or upgrades the store's tables in `schema`, so a deployment can run
 * it ahead of time (at release, from CI) instead of on first use. Safe to run
 * from many processes at once: each migration runs in one transaction under
 * an advisory lock of the schema, and a schema already current is left as it
 * is. A schema written by a newer version of the package is refused.
 *
 * @example
 * import { migrate } from '@agent-core/store-postgres';
 * const { from, to } = await migrate({ connectionString: process.env.DATABASE_URL });
 */
export async function migrate(options: MigrateOptions): Promise<MigrateResult> {
  const schema = options?.schema ?? 'public';
  const quoted = quotedSchema(schema);
  if ((options?.pool === undefined) === (options?.connectionString === undefined)) {
    throw new ConfigError('migrate needs exactly one of connectionString or pool.');
  }
  if (options.connectionString !== undefined) checkConnectionString(options.connectionString, 'migrate');
  const where = describeTarget(options, schema);
  let pool = options.pool;
  if (pool === undefined) {
    pool = await openPool({
      connectionString: options.connectionString as string,
      maxConnections: 1,
      statementTimeoutMs: 60_000,
      idleInTransactionTimeoutMs: 60_000,
      connectionTimeoutMs: 10_000,
    });
  }
  const ignore = () => {};
  pool.on('error', ignore);
  try {
    return await runMigrations(pool, schema, quoted, where, (error) =>
      storageErrorOf(error, where, passwordScrubber(options), loginSettings(options)),
    );
  } finally {
    // A pool's end() resolves before its sockets close: the listener of the pool opened here stays.
    if (options.pool === undefined) await pool.end();
    else pool.removeListener('error', ignore);
  }
}

/** The version recorded in a schema; 0 when its version table does not exist yet. */
export async function schemaVersion(pool: PostgresPool, quoted: string): Promise<number> {
  try {
    const { rows } = await pool.query({
      text: `SELECT coalesce(max(version), 0) AS version FROM ${quoted}.agent_core_schema_version`,
    });
    return Number(rows[0]?.version ?? 0);
  } catch (error) {
    // 42P01: no such table; 3F000: no such schema.
    const code = (error as { code?: unknown }).code;
    if (code === '42P01' || code === '3F000') return 0;
    throw error;
  }
}

/**
 * Runs the missing migrations of one schema under its advisory lock; `where`
 * names it in errors, and `fail` makes a driver's failure a typed error.
 */
export async function runMigrations(
  pool: PostgresPool,
  schema: string,
  quoted: string,
  where: string,
  fail: (error: unknown) => AgentError,
): Promise<MigrateResult> {
  try {
    // Most starts find the schema current: one read, no lock, no transaction.
    const found = await schemaVersion(pool, quoted);
    refuseNewer(found, where);
    if (found === currentSchemaVersion) return { schema, from: found, to: found };
    const client = await pool.connect();
    let failed: Error | undefined;
    try {
      await client.query({ text: 'BEGIN' });
      await client.query({
        text: 'SELECT pg_advisory_xact_lock($1, $2)',
        values: [lockNamespace, schemaLockKey(schema)],
      });
      const exists = await client.query({
        text: 'SELECT 1 FROM pg_namespace WHERE nspname = $1',
        values: [schema],
      });
      if (exists.rows.length === 0) await client.query({ text: `CREATE SCHEMA ${quoted}` });
      await client.query({
        text: `CREATE TABLE IF NOT EXISTS ${quoted}.agent_core_schema_version (
          version integer PRIMARY KEY,
          description text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now()
        )`,
      });
      const { rows } = await client.query({
        text: `SELECT coalesce(max(version), 0) AS version FROM ${quoted}.agent_core_schema_version`,
      });
      // Read again under the lock: another process may have migrated while this one waited.
      const from = Number(rows[0]?.version ?? 0);
      refuseNewer(from, where);
      for (const migration of schemaMigrations) {
        if (migration.version <= from) continue;
        for (const statement of migration.statements(quoted)) await client.query({ text: statement });
        await client.query({
          text: `INSERT INTO ${quoted}.agent_core_schema_version (version, description) VALUES ($1, $2)`,
          values: [migration.version, migration.description],
        });
      }
      await client.query({ text: 'COMMIT' });
      return { schema, from, to: currentSchemaVersion };
    } catch (error) {
      failed = error as Error;
      await client.query({ text: 'ROLLBACK' }).catch(() => {});
      throw error;
    } finally {
      client.release(failed);
    }
  } catch (error) {
    throw fail(error);
  }
}

function refuseNewer(found: number, where: string): void {
  if (found > currentSchemaVersion) {
    throw new ConfigError(
      `The tables in ${where} are at schema version ${found}, written by a newer @agent-core/store-postgres (this one knows up to ${currentSchemaVersion}). Upgrade @agent-core/store-postgres; nothing was changed.`,
    );
  }
}
