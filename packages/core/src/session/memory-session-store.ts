import { SessionConflictError } from '../errors/session-conflict-error.js';
import { SessionNotFoundError } from '../errors/session-not-found-error.js';
import { pageOfSummaries } from './list-cursor.js';
import { checkSessionEvents, checkSessionState } from './parse-session-state.js';
import { checkSessionId } from './session-id.js';
import { checkAppendOptions, checkSaveOptions } from './store-call-options.js';
import { fastPlainCopy, plainCopy } from './plain-copy.js';
import type { SessionEvent, SessionLogRecord } from './session-event.js';
import type { SessionState } from './session-state.js';
import type {
  AppendSessionOptions,
  ListSessionsOptions,
  SaveSessionOptions,
  SessionPage,
  SessionStore,
} from './session-store.js';
import { advanceSummary, type SessionSummary, summaryOf } from './session-summary.js';

interface StoredSession {
  state: SessionState;
  /**
   * The log: event `seq` at index `seq - 1`, with the operation that appended
   * it beside it. Records are made when the log is read: a session keeps two
   * slots per event, not a record object as well.
   */
  events: SessionEvent[];
  operationIds: string[];
  /** The first seq of each append by its operation id (its events follow in a row), so a retried append is a no-op. */
  operations: Map<string, number>;
  /** Kept current by every save and append, so `list` reads no history. */
  summary: SessionSummary;
}

/**
 * A `SessionStore` in process memory: for tests, short-lived servers and
 * browsers. Everything is copied in and out (as `structuredClone` would, see
 * `plainCopy`), so a caller changing a loaded state or a logged message never
 * changes what is stored.
 */
export class MemorySessionStore implements SessionStore {
  readonly #sessions = new Map<string, StoredSession>();

  async load(id: string): Promise<SessionState> {
    return plainCopy(this.#get(id).state);
  }

  async save(state: SessionState, options: SaveSessionOptions): Promise<{ version: number }> {
    checkSessionId(state?.id);
    checkSaveOptions(options);
    await checkSessionState(state);
    const stored = this.#sessions.get(state.id);
    const actual = stored?.state.version;
    if ((actual ?? 0) !== options.expectedVersion) {
      throw new SessionConflictError(state.id, options.expectedVersion, actual);
    }
    const version = options.expectedVersion + 1;
    const copy = plainCopy(state);
    copy.version = version;
    const summary = summaryOf(copy);
    // The log after the snapshot's last seq is part of the session too.
    if (stored !== undefined) advanceSummary(summary, stored.events.slice(copy.lastSeq));
    if (stored === undefined)
      this.#sessions.set(state.id, {
        state: copy,
        events: [],
        operationIds: [],
        operations: new Map(),
        summary,
      });
    else {
      stored.state = copy;
      stored.summary = summary;
    }
    return { version };
  }

  async list(options: ListSessionsOptions = {}): Promise<SessionPage> {
    const summaries = [...this.#sessions.values()].map((stored) => plainCopy(stored.summary));
    return pageOfSummaries(summaries, options);
  }

  async delete(id: string): Promise<boolean> {
    checkSessionId(id);
    return this.#sessions.delete(id);
  }

  async append(
    id: string,
    entries: readonly SessionEvent[],
    options: AppendSessionOptions,
  ): Promise<{ firstSeq: number; lastSeq: number }> {
    const stored = this.#get(id);
    checkAppendOptions(options);
    const copies = copiedEvents(id, entries);
    const operationId = options.operationId;
    const { events, operationIds } = stored;
    const done = stored.operations.get(operationId);
    if (done !== undefined) {
      // The append's events are the ones from its first seq on that carry its id.
      let lastSeq = done - 1;
      while (lastSeq < events.length && operationIds[lastSeq] === operationId) lastSeq++;
      return { firstSeq: done, lastSeq };
    }
    const firstSeq = events.length + 1;
    for (const event of copies) {
      events.push(event);
      operationIds.push(operationId);
    }
    advanceSummary(stored.summary, entries);
    stored.operations.set(operationId, firstSeq);
    return { firstSeq, lastSeq: events.length };
  }

  async read(id: string, options: { fromSeq?: number } = {}): Promise<SessionLogRecord[]> {
    const { events, operationIds } = this.#get(id);
    const records: SessionLogRecord[] = [];
    // Where the log is cut, as `slice` would cut it whatever fromSeq is (a fraction, NaN, Infinity).
    const start = Math.max(0, (options.fromSeq ?? 1) - 1);
    const from = Math.min(events.length, Number.isNaN(start) ? 0 : Math.trunc(start));
    for (let index = from; index < events.length; index++) {
      records.push({
        seq: index + 1,
        operationId: operationIds[index] as string,
        event: events[index] as SessionEvent,
      });
    }
    return plainCopy(records);
  }

  #get(id: string): StoredSession {
    const stored = this.#sessions.get(id);
    // A stored session's id passed checkSessionId when it was saved: only an id not found is checked.
    if (stored !== undefined) return stored;
    checkSessionId(id);
    throw new SessionNotFoundError(id, 'the memory store');
  }
}

/**
 * Copies of the entries, checked as `checkSessionEvents` checks them. The
 * copy walks each entry anyway: one it makes within 64 levels is within the
 * depth limit, so the whole check runs only for an entry it cannot copy or
 * that is not an event object, before anything is stored.
 */
function copiedEvents(id: string, entries: readonly SessionEvent[]): SessionEvent[] {
  const copies: SessionEvent[] = [];
  if (Array.isArray(entries))
    for (const entry of entries) {
      const copy = fastPlainCopy(entry);
      if (
        copy === undefined ||
        Array.isArray(copy) ||
        typeof copy !== 'object' ||
        typeof copy?.type !== 'string'
      )
        break;
      copies.push(copy);
    }
  if (Array.isArray(entries) && copies.length === entries.length) return copies;
  checkSessionEvents(id, entries);
  return entries.map((entry) => plainCopy(entry));
}
