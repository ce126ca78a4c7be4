import { ConfigError } from '@agent-core/core';
import type { Pool } from 'pg';
import { graphileLogger, loadGraphile } from './load-graphile.js';

/** The version of this package's own tables; `agent_core_workers_version` records the one applied. */
export const workerTablesVersion = 1;

/** This package's tables, beside graphile-worker's in the same schema: each step moves one version up. */
function migrations(schema: string): string[][] {
  return [
    [
      `CREATE TABLE IF NOT EXISTS ${schema}.agent_core_operations (
        operation_id text COLLATE "C" PRIMARY KEY,
        position bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        session_id text COLLATE "C" NOT NULL,
        kind text NOT NULL,
        input json NOT NULL,
        input_hash text NOT NULL,
        schedule text COLLATE "C",
        state text NOT NULL DEFAULT 'queued',
        attempts integer NOT NULL DEFAULT 0,
        handed_on integer NOT NULL DEFAULT 0,
        holder text,
        run_from_seq bigint,
        outcome json,
        enqueued_at timestamptz NOT NULL DEFAULT now(),
        started_at timestamptz,
        finished_at timestamptz
      )`,
      `CREATE INDEX IF NOT EXISTS agent_core_operations_open ON ${schema}.agent_core_operations (session_id, position) WHERE state IN ('queued', 'running')`,
      `CREATE INDEX IF NOT EXISTS agent_core_operations_schedule ON ${schema}.agent_core_operations (schedule, position) WHERE schedule IS NOT NULL AND state IN ('queued', 'running')`,
      `CREATE INDEX IF NOT EXISTS agent_core_operations_finished ON ${schema}.agent_core_operations (finished_at) WHERE finished_at IS NOT NULL`,
      `CREATE TABLE IF NOT EXISTS ${schema}.agent_core_worker_processes (
        worker_id text COLLATE "C" PRIMARY KEY,
        host text NOT NULL,
        pid integer NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL
      )`,
    ],
  ];
}

/**
 * Creates or upgrades graphile-worker's tables and this package's in `schema`,
 * under an advisory lock of the schema, so any number of processes may start
 * at once. Tables of a newer version of the package are refused with `ConfigError`.
 */
export async function migrateTables(pool: Pool, schema: string): Promise<{ from: number; to: number }> {
  const quoted = `"${schema}"`;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [`agent_core_workers:${schema}`]);
    try {
      const graphile = await loadGraphile();
      await graphile.runMigrations({ pgPool: pool, schema, logger: graphileLogger(graphile) });
      await client.query(`CREATE TABLE IF NOT EXISTS ${quoted}.agent_core_workers_version (
        version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const from = await tablesVersion(client, quoted);
      if (from > workerTablesVersion)
        throw new ConfigError(
          `The run queue's tables in schema ${schema} are at version ${from}, written by a newer @agent-core/workers (this one knows ${workerTablesVersion}); upgrade the package. Nothing was changed.`,
        );
      const steps = migrations(quoted);
      for (let version = from + 1; version <= workerTablesVersion; version++) {
        await client.query('BEGIN');
        try {
          for (const statement of steps[version - 1] ?? []) await client.query(statement);
          await client.query(`INSERT INTO ${quoted}.agent_core_workers_version (version) VALUES ($1)`, [
            version,
          ]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
      return { from, to: workerTablesVersion };
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [
        `agent_core_workers:${schema}`,
      ]);
    }
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.release(broken);
  }
}

/**
 * With `autoMigrate: false`: checks that graphile-worker's tables and this
 * package's are there and current, and throws `ConfigError` saying what to run otherwise.
 */
export async function checkTables(pool: Pool, schema: string, where: string): Promise<void> {
  const quoted = `"${schema}"`;
  const { rows } = await pool.query(
    `SELECT to_regclass($1) IS NOT NULL AS jobs, to_regclass($2) IS NOT NULL AS versions`,
    [`${quoted}._private_jobs`, `${quoted}.agent_core_workers_version`],
  );
  const found = rows[0] as { jobs: boolean; versions: boolean };
  const version = found.versions ? await tablesVersion(pool, quoted) : 0;
  if (!found.jobs || version !== workerTablesVersion)
    throw new ConfigError(
      `The run queue's tables are missing or out of date in ${where}${found.jobs ? `: this package's are at version ${version}, it needs ${workerTablesVersion}` : ": graphile-worker's jobs table is not there"}. Run migrateWorkers({ connectionString, schema: '${schema}' }) from @agent-core/workers first (as a user that may create tables), or pass autoMigrate: true.`,
    );
}

async function tablesVersion(
  client: { query(text: string): Promise<{ rows: unknown[] }> },
  quoted: string,
): Promise<number> {
  const { rows } = await client.query(
    `SELECT coalesce(max(version), 0)::int AS version FROM ${quoted}.agent_core_workers_version`,
  );
  return (rows[0] as { version: number }).version;
}
