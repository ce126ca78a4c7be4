import { ConfigError } from '@agent-core/core';
import type { SessionStatements } from './session-statements.js';
import type { StoreConnection } from './store-connection.js';

/** Options of `PostgresSessionStore.prune`. */
export interface PruneOptions {
  /** Sessions whose last activity (`updatedAt`) is before this are deleted, with their logs. */
  updatedBefore: Date | string;
  /** Sessions deleted per transaction. Default 500. */
  batchSize?: number;
}

/** What `prune` deleted. */
export interface PruneResult {
  deleted: number;
}

/**
 * Deletes the sessions not updated since `updatedBefore`, with their events
 * and appends, `batchSize` sessions per transaction, so a large purge never
 * holds many locks or one long transaction. A session whose run lease is live
 * (a process is running it) is kept, and so is one another transaction holds locked.
 */
export async function pruneSessions(
  connection: StoreConnection,
  statements: SessionStatements,
  options: PruneOptions,
  forget: (ids: readonly string[]) => void,
): Promise<PruneResult> {
  const before = cutoff(options?.updatedBefore);
  const batchSize = options.batchSize ?? 500;
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new ConfigError(`prune's batchSize must be a whole number of sessions >= 1, got ${batchSize}.`);
  }
  let deleted = 0;
  for (;;) {
    const ids = await connection.transaction(async (client) => {
      const { rows } = await client.query({ text: statements.pruneBatch, values: [before, batchSize] });
      const batch = rows.map((row) => row.id as string);
      if (batch.length > 0) {
        await client.query({ text: statements.deleteEvents, values: [batch] });
        await client.query({ text: statements.deleteAppends, values: [batch] });
      }
      return batch;
    });
    forget(ids);
    deleted += ids.length;
    if (ids.length < batchSize) return { deleted };
  }
}

function cutoff(value: Date | string | undefined): string {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) {
    throw new ConfigError(
      `prune needs updatedBefore, a Date or an ISO 8601 time, got ${JSON.stringify(value)}: e.g. prune({ updatedBefore: new Date(Date.now() - 30 * 86_400_000) }).`,
    );
  }
  // Stored times are ISO 8601 in UTC (toISOString), so they compare as text.
  return date.toISOString();
}
