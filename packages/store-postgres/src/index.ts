export { PostgresSessionStore } from './postgres-session-store.js';
export type { PostgresSessionStoreOptions } from './store-options.js';
export { PostgresSessionLease } from './postgres-session-lease.js';
export { migrate } from './migrate.js';
export type { MigrateOptions, MigrateResult } from './migrate.js';
export type { PruneOptions, PruneResult } from './prune-sessions.js';
export type {
  PostgresPool,
  PostgresPoolClient,
  PostgresQuery,
  PostgresQueryResult,
} from './postgres-pool.js';
