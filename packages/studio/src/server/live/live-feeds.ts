import type { LiveMark, LiveUpdate } from '../../shared/studio-data.js';
import type { RunActivity } from '../runs/studio-runs.js';
import type { SessionFeed } from './session-feed.js';

interface OpenFeed {
  feed: SessionFeed;
  send: (update: LiveUpdate) => void;
}

/**
 * The open live streams of every session's page. Each stream polls the store
 * on its own timer (runs in other processes); a run in the studio's own
 * process also pokes its session's streams at once, and its streamed text
 * goes to them directly, as it is not in the log until the message ends.
 */
export class LiveFeeds implements RunActivity {
  readonly #feeds = new Map<string, Set<OpenFeed>>();
  readonly #poked = new Set<string>();
  readonly #onEnded: (sessionId: string) => void;

  constructor(onEnded: (sessionId: string) => void) {
    this.#onEnded = onEnded;
  }

  /** Adds a stream; the function returned removes it. */
  open(sessionId: string, feed: SessionFeed, send: (update: LiveUpdate) => void): () => void {
    let feeds = this.#feeds.get(sessionId);
    if (feeds === undefined) {
      feeds = new Set();
      this.#feeds.set(sessionId, feeds);
    }
    const entry = { feed, send };
    feeds.add(entry);
    return () => {
      feeds.delete(entry);
      if (feeds.size === 0 && this.#feeds.get(sessionId) === feeds) this.#feeds.delete(sessionId);
    };
  }

  /** Streams open now, over every session. */
  get size(): number {
    let count = 0;
    for (const feeds of this.#feeds.values()) count += feeds.size;
    return count;
  }

  activity(sessionId: string): void {
    // Many events of a step arrive together: one poll after them, not one each.
    if (this.#poked.has(sessionId) || !this.#feeds.has(sessionId)) return;
    this.#poked.add(sessionId);
    setTimeout(() => {
      this.#poked.delete(sessionId);
      for (const { feed } of this.#feeds.get(sessionId) ?? []) void feed.poll();
    }, 20).unref();
  }

  delta(sessionId: string, runId: string, text: string): void {
    for (const { send } of this.#feeds.get(sessionId) ?? []) send({ type: 'delta', runId, text });
  }

  mark(sessionId: string, mark: LiveMark): void {
    for (const { send } of this.#feeds.get(sessionId) ?? []) send({ type: 'mark', mark });
  }

  ended(sessionId: string): void {
    this.activity(sessionId);
    this.#onEnded(sessionId);
  }
}
