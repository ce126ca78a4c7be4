import { migrateTables } from './worker-tables.js';
import { type WorkersConnectionOptions, WorkersDatabase } from './workers-database.js';

/** Options of `migrateWorkers`: where the queue lives. */
export type MigrateWorkersOptions = Pick<WorkersConnectionOptions, 'connectionString' | 'pool' | 'schema'>;

/** What `migrateWorkers` did: the schema, and this package's table version before and after. */
export interface MigrateWorkersResult {
  schema: string;
  from: number;
  to: number;
}

/**
 * Creates or upgrades the run queue's tables (graphile-worker's and this
 * package's) ahead of time, for deployments whose application user may not
 * create tables: then start queues and workers with `autoMigrate: false`.
 * Any number of processes may run it at once.
 */
export async function migrateWorkers(options: MigrateWorkersOptions): Promise<MigrateWorkersResult> {
  const database = new WorkersDatabase({ ...options, autoMigrate: false }, 'migrateWorkers');
  try {
    const pool = await database.rawPool();
    try {
      const { from, to } = await migrateTables(pool, database.schema);
      return { schema: database.schema, from, to };
    } catch (error) {
      throw database.failure(error, 'could not be migrated');
    }
  } finally {
    await database.close();
  }
}
