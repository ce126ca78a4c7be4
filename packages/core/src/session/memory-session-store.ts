import { SessionConflictError } from '../errors/session-conflict-error.js';
import { SessionNotFoundError } from '../errors/session-not-found-error.js';
import { pageOfSummaries } from './list-cursor.js';
import { checkSessionState } from './parse-session-state.js';
import { checkSessionId } from './session-id.js';
import { plainCopy } from './plain-copy.js';
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
  log: SessionLogRecord[];
  operations: Map<string, { firstSeq: number; lastSeq: number }>;
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
    if (stored !== undefined) advanceSummary(summary, eventsAfter(stored.log, copy.lastSeq));
    if (stored === undefined)
      this.#sessions.set(state.id, { state: copy, log: [], operations: new Map(), summary });
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
    const done = stored.operations.get(options.operationId);
    if (done !== undefined) return done;
    const firstSeq = stored.log.length + 1;
    for (const event of entries) {
      stored.log.push({
        seq: stored.log.length + 1,
        operationId: options.operationId,
        event: plainCopy(event),
      });
    }
    advanceSummary(stored.summary, entries);
    const seqs = { firstSeq, lastSeq: stored.log.length };
    stored.operations.set(options.operationId, seqs);
    return seqs;
  }

  async read(id: string, options: { fromSeq?: number } = {}): Promise<SessionLogRecord[]> {
    const log = this.#get(id).log;
    return plainCopy(log.slice(Math.max(0, (options.fromSeq ?? 1) - 1)));
  }

  #get(id: string): StoredSession {
    const stored = this.#sessions.get(id);
    // A stored session's id passed checkSessionId when it was saved: only an id not found is checked.
    if (stored !== undefined) return stored;
    checkSessionId(id);
    throw new SessionNotFoundError(id, 'the memory store');
  }
}

function eventsAfter(log: readonly SessionLogRecord[], lastSeq: number): SessionEvent[] {
  return log.slice(lastSeq).map((record) => record.event);
}
