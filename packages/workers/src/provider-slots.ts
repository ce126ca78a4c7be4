import { createHash } from 'node:crypto';
import type { Logger } from '@agent-core/core';
import type { PoolClient } from 'pg';
import type { WorkersDatabase } from './workers-database.js';

/** A run's place under its provider's limit; `release` gives it back. */
export interface ProviderSlot {
  readonly key: string;
  release(): Promise<void>;
}

/**
 * Limits runs per provider key across every worker that shares the database:
 * a key with limit N has N slots, each a PostgreSQL advisory lock that one
 * run holds while it runs. The locks are held on one connection of the
 * worker's own, so the server frees them when the worker dies (its
 * connection drops) and no table needs cleaning. Should that connection drop
 * while the worker lives, its runs go on and their slots count as free for
 * others until they end: a limit may then be passed for a while, never a run lost.
 */
export class ProviderSlots {
  readonly #database: WorkersDatabase;
  readonly #logger: Logger;
  #client: Promise<PoolClient> | undefined;
  /** Locks this worker holds: a session-level advisory lock is granted again to the connection holding it, so those are skipped here. */
  readonly #held = new Set<string>();
  /** Takes the connection's own `error` listener off, before it is given back. */
  #drop: () => void = () => {};
  /** Serialises the statements on the one connection. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(database: WorkersDatabase, logger: Logger) {
    this.#database = database;
    this.#logger = logger;
  }

  /** A free slot of `key` (of `limit`), or undefined when all are held. */
  async tryAcquire(key: string, limit: number): Promise<ProviderSlot | undefined> {
    const first = Math.floor(Math.random() * limit);
    for (let index = 0; index < limit; index++) {
      const slot = (first + index) % limit;
      const lock = this.#lockKey(key, slot);
      if (this.#held.has(lock)) continue;
      this.#held.add(lock);
      let taken = false;
      try {
        taken =
          (await this.#run('SELECT pg_try_advisory_lock($1::bigint) AS taken', [lock]))[0]?.taken === true;
      } finally {
        if (!taken) this.#held.delete(lock);
      }
      if (taken) return this.#slot(key, lock);
    }
    return undefined;
  }

  #slot(key: string, lock: string): ProviderSlot {
    let released = false;
    return {
      key,
      release: async () => {
        if (released) return;
        released = true;
        this.#held.delete(lock);
        await this.#run('SELECT pg_advisory_unlock($1::bigint)', [lock]).catch((error: unknown) => {
          this.#logger.debug('a provider slot could not be given back; it is freed with its connection', {
            error: error instanceof Error ? error.message : String(error),
          });
        });
      },
    };
  }

  /** A 64-bit lock key of the slot, within this schema's namespace. */
  #lockKey(key: string, slot: number): string {
    const digest = createHash('sha256')
      .update(`agent_core_workers:${this.#database.schema}:${key}:${slot}`)
      .digest();
    return digest.readBigInt64BE(0).toString();
  }

  #run(text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
    const next = this.#queue.then(async () => {
      const client = await this.#connection();
      try {
        return (await client.query(text, values)).rows as Record<string, unknown>[];
      } catch (error) {
        throw this.#database.failure(error, 'refused a provider slot');
      }
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  #connection(): Promise<PoolClient> {
    this.#client ??= this.#database.connect().then((client) => {
      const dropped = (error: Error) => {
        this.#logger.warn(
          'the connection holding provider slots dropped: the runs going on keep running, and their slots count as free until they end',
          { error: error.message },
        );
        client.removeListener('error', dropped);
        this.#client = undefined;
        client.release(error);
      };
      client.on('error', dropped);
      this.#drop = () => client.removeListener('error', dropped);
      return client;
    });
    this.#client.catch(() => {
      this.#client = undefined;
    });
    return this.#client;
  }

  /** Gives the connection back, and with it every slot still held. */
  async close(): Promise<void> {
    const client = await this.#client?.catch(() => undefined);
    this.#client = undefined;
    if (client === undefined) return;
    await client.query('SELECT pg_advisory_unlock_all()').catch(() => {});
    this.#drop();
    client.release();
  }
}
