import { canonicalJson, type RedactOptions } from '@agent-core/core';
import type { CassetteMessage } from './cassette-data.js';
import { canonicalMessage } from './canonical-message.js';
import { emptyHash, type HashState, hashKey, hashText } from './request-hash.js';
import { ToolCallIds } from './tool-call-ids.js';

/**
 * The canonical form of one conversation's messages, kept from request to
 * request: an agent sends its whole history every time, and the history only
 * grows, so the messages a request shares (by identity) with the one before
 * are not made canonical again. Per position it keeps the canonical message,
 * its JSON line and the hash of everything up to it, so any prefix has a key.
 * Cost per request: a pass of identity checks, plus the new messages.
 */
export class CanonicalCursor {
  readonly #redact: RedactOptions | false;
  #sources: readonly unknown[] = [];
  readonly #messages: CassetteMessage[] = [];
  readonly #lines: string[] = [];
  readonly #chains: HashState[] = [];
  /** Tool-call ids seen up to each position, to forget the later ones when a request shares less. */
  readonly #idCounts: number[] = [];
  readonly #ids = new ToolCallIds();

  /** `redact: false` for messages made canonical (and redacted) before: a recording's. */
  constructor(redact: RedactOptions | false) {
    this.#redact = redact;
  }

  /** The message the cursor stands on first, to choose a cursor for a request. */
  get first(): unknown {
    return this.#sources[0];
  }

  /** How many leading messages of `messages` the cursor holds already. */
  shared(messages: readonly unknown[]): number {
    const sources = this.#sources;
    // The length it holds, not the source's: an agent's live history array grows after it was sent.
    const most = Math.min(messages.length, this.#messages.length);
    let common = 0;
    while (common < most && messages[common] === sources[common]) common++;
    return common;
  }

  /** Moves the cursor to `messages` (a request's, or a recorded entry's). */
  advance(messages: readonly CassetteMessage[]): void {
    const common = this.shared(messages);
    this.#messages.length = common;
    this.#lines.length = common;
    this.#chains.length = common;
    this.#idCounts.length = common;
    this.#ids.truncate(common === 0 ? 0 : (this.#idCounts[common - 1] as number));
    let chain = common === 0 ? emptyHash : (this.#chains[common - 1] as HashState);
    for (let index = common; index < messages.length; index++) {
      const message = canonicalMessage(messages[index] as CassetteMessage, this.#ids, this.#redact);
      const line = canonicalJson(message);
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
