import type { RedactOptions } from '@agent-core/core';
import { CanonicalCursor } from './canonical-cursor.js';

/**
 * A few cursors, one per conversation in flight: agents that share a
 * provider (a parent and its subagents, tests run side by side) each keep
 * theirs, so none makes the others' histories canonical again from the start.
 */
export class CursorPool {
  readonly #redact: RedactOptions;
  readonly #cursors: CanonicalCursor[] = [];
  readonly #size: number;

  constructor(redact: RedactOptions, size = 4) {
    this.#redact = redact;
    this.#size = size;
  }

  /** The cursor sharing the most leading messages with `messages`, or the least recently used one. */
  for(messages: readonly unknown[]): CanonicalCursor {
    let best = -1;
    let bestShared = 0;
    this.#cursors.forEach((cursor, index) => {
      const shared = cursor.shared(messages);
      if (shared > bestShared) {
        best = index;
        bestShared = shared;
      }
    });
    let cursor: CanonicalCursor;
    if (best !== -1) cursor = this.#cursors.splice(best, 1)[0] as CanonicalCursor;
    else if (this.#cursors.length < this.#size) cursor = new CanonicalCursor(this.#redact);
    else cursor = this.#cursors.shift() as CanonicalCursor;
    // Most recently used last.
    this.#cursors.push(cursor);
    return cursor;
  }
}
