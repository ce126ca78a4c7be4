import type { RedactOptions } from '@agent-core/core';
import type { CassetteMessage } from './cassette-data.js';
import { canonicalMessage } from './canonical-message.js';
import { emptyHash, type HashState, hashKey, hashText } from './request-hash.js';
import type { MessagesView } from './request-messages.js';
import { ToolCallIds } from './tool-call-ids.js';

/** The JSON line of each canonical message made so far: canonical messages are never changed, so a line is made once. */
const lineCache = new WeakMap<object, string>();

/**
 * The line of a canonical message: its JSON, keys sorted at every level.
 * `canonicalMessage` builds every object with sorted keys, so the native
 * `JSON.stringify` writes it (several times faster than sorting as it goes).
 */
export function lineOf(message: CassetteMessage): string {
  let line = lineCache.get(message);
  if (line === undefined) {
    line = JSON.stringify(message);
    lineCache.set(message, line);
  }
  return line;
}

/**
 * The canonical form of one conversation's messages, kept from request to
 * request: an agent sends its whole history every time, and the history only
 * grows, so the messages a request shares (by identity) with the one before
 * are not made canonical again. Per position it keeps the canonical message,
 * its JSON line and the hash of everything up to it, so any prefix has a key.
 * Cost per request: a pass of identity checks, plus the new messages.
 */
export class CanonicalCursor {
  readonly #redact: RedactOptions | 'canonical';
  #sources: readonly unknown[] = [];
  /** Only ever grows: views handed out (`view()`) stay true; a request that shares less gets a new array. */
  #messages: CassetteMessage[] = [];
  readonly #lines: string[] = [];
  readonly #chains: HashState[] = [];
  /** Tool-call ids seen up to each position, to forget the later ones when a request shares less. */
  readonly #idCounts: number[] = [];
  readonly #ids = new ToolCallIds();

  /**
   * `redact` applies to the messages made canonical; `'canonical'` takes the
   * messages as they are, for a recording's, which a cursor made canonical
   * (ids by order, redacted) when it was recorded, parsed or loaded.
   */
  constructor(redact: RedactOptions | 'canonical') {
    this.#redact = redact;
  }

  /** How many of the first `length` messages of `messages` the cursor holds already. */
  shared(messages: readonly unknown[], length = messages.length): number {
    const sources = this.#sources;
    // The length it holds, not the source's: an agent's live history array grows after it was sent.
    const most = Math.min(length, this.#messages.length);
    let common = 0;
    while (common < most && messages[common] === sources[common]) common++;
    return common;
  }

  /** Moves the cursor to the first `length` of `messages` (a request's, or a recorded entry's). */
  advance(messages: readonly CassetteMessage[], length = messages.length): void {
    const common = this.shared(messages, length);
    if (common < this.#messages.length) this.#messages = this.#messages.slice(0, common);
    this.#lines.length = common;
    this.#chains.length = common;
    this.#idCounts.length = common;
    this.#ids.truncate(common === 0 ? 0 : (this.#idCounts[common - 1] as number));
    let chain = common === 0 ? emptyHash : (this.#chains[common - 1] as HashState);
    for (let index = common; index < length; index++) {
      const given = messages[index] as CassetteMessage;
      const message = this.#redact === 'canonical' ? given : canonicalMessage(given, this.#ids, this.#redact);
      const line = lineOf(message);
      chain = hashText(chain, line);
      this.#messages.push(message);
      this.#lines.push(line);
      this.#chains.push(chain);
      this.#idCounts.push(this.#ids.count);
    }
    this.#sources = messages;
  }

  /** Messages the cursor stands on. */
  get length(): number {
    return this.#messages.length;
  }

  /** The canonical messages, a new array. */
  messages(): CassetteMessage[] {
    return this.#messages.slice();
  }

  /** The canonical messages as a view that later moves of the cursor leave true (see `viewRequest`). */
  view(): MessagesView {
    return { source: this.#messages, length: this.#messages.length };
  }

  /** Every canonical message as its line of JSON, a new array. */
  lines(): string[] {
    return this.#lines.slice();
  }

  /** The canonical message at `index`, as one line of JSON with sorted keys. */
  line(index: number): string {
    return this.#lines[index] as string;
  }

  /** The key of the first `count` messages (0: none). */
  key(count = this.#messages.length): string {
    return `${count}:${hashKey(count === 0 ? emptyHash : (this.#chains[count - 1] as HashState))}`;
  }
}
