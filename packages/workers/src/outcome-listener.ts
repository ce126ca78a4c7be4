import type { Logger } from '@agent-core/core';
import type { PoolClient } from 'pg';
import type { WorkersDatabase } from './workers-database.js';

/** The channel a worker notifies, with the operation id, when an operation settles. */
export function outcomeChannel(schema: string): string {
  return `agent_core_operations_${schema}`;
}

/** A wait for the next notification about one operation. */
export interface NextNotice {
  /** Resolves when the operation is notified, after `ms`, or when `signal` aborts (rejecting with its reason). */
  within(ms: number, signal?: AbortSignal): Promise<void>;
  cancel(): void;
}

/**
 * One LISTEN connection for every wait of a queue: notifications wake the
 * waiters of their operation. A dropped connection is opened again by the
 * next wait; waiters look at the table every two seconds meanwhile, so a
 * notification missed while it was down costs a little time, never an outcome.
 */
export class OutcomeListener {
  readonly #database: WorkersDatabase;
  readonly #logger: Logger;
  readonly #waiters = new Map<string, Set<() => void>>();
  #client: Promise<PoolClient | undefined> | undefined;
  /** Takes the listening connection's own `error` listener off, before it is given back. */
  #drop: () => void = () => {};

  constructor(database: WorkersDatabase, logger: Logger) {
    this.#database = database;
    this.#logger = logger;
  }

  next(operationId: string): NextNotice {
    void this.#connect();
    let wake: () => void = () => {};
    const woken = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const waiters = this.#waiters.get(operationId) ?? new Set();
    this.#waiters.set(operationId, waiters);
    waiters.add(wake);
    const cancel = () => {
      waiters.delete(wake);
      if (waiters.size === 0 && this.#waiters.get(operationId) === waiters) this.#waiters.delete(operationId);
    };
    return {
      cancel,
      within: async (ms, signal) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        let onAbort: (() => void) | undefined;
        try {
          await Promise.race([
            woken,
            new Promise<void>((resolve) => {
              timer = setTimeout(resolve, Math.max(0, ms));
            }),
            new Promise<void>((_resolve, reject) => {
              if (signal === undefined) return;
              onAbort = () => reject(signal.reason);
              if (signal.aborted) onAbort();
              else signal.addEventListener('abort', onAbort, { once: true });
            }),
          ]);
        } finally {
          clearTimeout(timer);
          if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
          cancel();
        }
      },
    };
  }

  #connect(): Promise<PoolClient | undefined> {
    this.#client ??= (async () => {
      try {
        const client = await this.#database.connect();
        const drop = (error: Error) => {
          this.#logger.debug('the run queue lost its listening connection; it reconnects on the next wait', {
            error: error.message,
          });
          client.removeListener('error', drop);
          this.#client = undefined;
          client.release(error);
        };
        this.#drop = () => client.removeListener('error', drop);
        client.on('error', drop);
        client.on('notification', (message) => {
          const waiters = message.payload === undefined ? undefined : this.#waiters.get(message.payload);
          for (const wake of waiters ?? []) wake();
        });
        await client.query(`LISTEN "${outcomeChannel(this.#database.schema)}"`);
        return client;
      } catch (error) {
        this.#client = undefined;
        this.#logger.debug(
          'the run queue could not listen for outcomes; it looks every two seconds instead',
          {
            error: error instanceof Error ? error.message : String(error),
          },
        );
        return undefined;
      }
    })();
    return this.#client;
  }

  /** Gives the listening connection back. */
  async close(): Promise<void> {
    const client = await this.#client;
    this.#client = undefined;
    if (client === undefined) return;
    await client.query(`UNLISTEN *`).catch(() => {});
    this.#drop();
    client.release();
  }
}
