import { ConfigError, type Logger } from '@agent-core/core';
import type { RunQueue } from '@agent-core/workers';
import type { CliConfig } from '../config/load-config.js';
import type { OpenedStore } from './open-store.js';

/** The run queue's schema from the configuration (`[worker] schema`). */
export function queueSchema(config: CliConfig): string {
  return config.values.worker?.schema ?? 'agent_core_workers';
}

/**
 * The run queue of the configured store: its `postgres://` database holds the
 * queue's tables beside the sessions. `create: false` leaves a database that
 * has none alone (the `ConfigError` then says so); `run --queue` creates them.
 * `@agent-core/workers` loads only here.
 */
export async function openQueue(
  config: CliConfig,
  store: OpenedStore,
  options: { create: boolean; logger: Logger },
): Promise<RunQueue> {
  if (store.kind !== 'postgres')
    throw new ConfigError(
      `The run queue lives in the sessions' PostgreSQL database, and the store is ${store.label}: pass --store postgres://... (or store = "postgres://..." in the config), the same for the workers and for this command.`,
    );
  const { RunQueue } = await import('@agent-core/workers');
  return new RunQueue({
    connectionString: config.store,
    store: store.store,
    schema: queueSchema(config),
    autoMigrate: options.create,
    logger: options.logger,
  });
}
