import type { SessionLogRecord, SessionStore } from '@agent-core/core';
import type { LiveUpdate, TimelineRecord, ViewMessage } from '../../shared/studio-data.js';
import { describeError } from '../view/describe-error.js';
import type { Redactor } from '../view/redactor.js';
import { timelineRecord } from '../view/timeline-record.js';
import { viewMessage } from '../view/view-message.js';

/** Options of `SessionFeed`. */
export interface SessionFeedOptions {
  store: SessionStore;
  sessionId: string;
  /** The last log record the page has, and how many messages it shows. */
  fromSeq: number;
  messageCount: number;
  redactor: Redactor;
  send: (update: LiveUpdate) => void;
}

/**
 * What one open page of a session is sent as the session changes: the log
 * records appended since the page's `fromSeq`, read from the store, so runs in
 * any process show. `poll()` reads once (a read past the log's end is a stat
 * on the file store, an index lookup on PostgreSQL); a store that fails is
 * reported once, and its recovery asks the page to read the session again.
 */
export class SessionFeed {
  readonly #options: SessionFeedOptions;
  #lastSeq: number;
  #messageCount: number;
  #polling: Promise<void> | undefined;
  #again = false;
  #failing = false;

  constructor(options: SessionFeedOptions) {
    this.#options = options;
    this.#lastSeq = options.fromSeq;
    this.#messageCount = options.messageCount;
  }

  /** Reads what was appended; a poll asked for while one runs runs once more after it. */
  poll(): Promise<void> {
    if (this.#polling !== undefined) {
      this.#again = true;
      return this.#polling;
    }
    this.#polling = this.#read().finally(() => {
      this.#polling = undefined;
      if (this.#again) {
        this.#again = false;
        void this.poll();
      }
    });
    return this.#polling;
  }

  async #read(): Promise<void> {
    const { store, sessionId, redactor, send } = this.#options;
    let records: SessionLogRecord[];
    try {
      records = await store.read(sessionId, { fromSeq: this.#lastSeq + 1 });
    } catch (error) {
      if (!this.#failing) send({ type: 'store_error', message: describeError(error, redactor) });
      this.#failing = true;
      return;
    }
    if (this.#failing) {
      this.#failing = false;
      send({ type: 'changed' });
    }
    if (records.length === 0) return;
    // A log cut back (a repair) or replaced: the page reads the session again.
    if ((records[0] as SessionLogRecord).seq !== this.#lastSeq + 1) {
      this.#lastSeq = (records.at(-1) as SessionLogRecord).seq;
      send({ type: 'changed' });
      return;
    }
    const slim: TimelineRecord[] = [];
    const messages: ViewMessage[] = [];
    let ended = false;
    for (const record of records) {
      const timeline = timelineRecord(record, redactor);
      if (timeline !== undefined) slim.push(timeline);
      if (record.event.type === 'message')
        messages.push(viewMessage(record.event.message, this.#messageCount++, redactor));
      if (record.event.type === 'run_ended') ended = true;
    }
    this.#lastSeq = (records.at(-1) as SessionLogRecord).seq;
    send({ type: 'records', records: slim, messages, lastSeq: this.#lastSeq });
    // A run's end changes what the log alone does not carry to the page (approvals waiting, the status).
    if (ended) send({ type: 'changed' });
  }
}
