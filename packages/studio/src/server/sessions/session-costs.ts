import type { SessionStore } from '@agent-core/core';
import type { SessionRow } from '../../shared/studio-data.js';

/** Sessions whose cost is read at once: each read loads a snapshot. */
const costConcurrency = 4;
/** Costs remembered; the oldest is forgotten past this. */
const cachedCosts = 20_000;

/**
 * The cost of a session in US dollars, summed over its runs, for the rows a
 * list page shows. A store's summary carries no cost, so each is read from the
 * session (its snapshot's usage plus the runs logged after it), a few at a
 * time, and remembered until the session changes (its `updatedAt`, version or
 * message count). `null` when no run reported a cost (or it cannot be read).
 */
export class SessionCosts {
  readonly #store: SessionStore;
  readonly #cache = new Map<string, { key: string; cost: number | null }>();

  constructor(store: SessionStore) {
    this.#store = store;
  }

  /** The costs of `rows`, by id. */
  async costsOf(rows: readonly SessionRow[]): Promise<Record<string, number | null>> {
    const costs: Record<string, number | null> = {};
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < rows.length) {
        const row = rows[next++] as SessionRow;
        costs[row.id] = await this.#costOf(row);
      }
    };
    await Promise.all(Array.from({ length: Math.min(costConcurrency, rows.length) }, worker));
    return costs;
  }

  async #costOf(row: SessionRow): Promise<number | null> {
    const key = `${row.updatedAt}|${row.version}|${row.messageCount}`;
    const cached = this.#cache.get(row.id);
    if (cached?.key === key) return cached.cost;
    let cost: number | null = null;
    try {
      const state = await this.#store.load(row.id);
      let total = state.usage.cost;
      for (const record of await this.#store.read(row.id, { fromSeq: state.lastSeq + 1 })) {
        const event = record.event;
        if (event.type === 'run_ended' && event.usage.cost !== undefined)
          total = (total ?? 0) + event.usage.cost;
      }
      cost = total ?? null;
    } catch {
      return null; // Damaged or deleted since it was listed: its page says why.
    }
    this.#cache.delete(row.id);
    this.#cache.set(row.id, { key, cost });
    if (this.#cache.size > cachedCosts) this.#cache.delete(this.#cache.keys().next().value as string);
    return cost;
  }
}
