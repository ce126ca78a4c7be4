import { redactSecrets } from '@agent-core/core';
import type { CutText } from '../../shared/studio-data.js';

/**
 * Cuts texts to size and removes secrets from them before anything reaches a
 * page, an event stream or a log. Made once per studio with the exact values
 * the app knows to be secret (its API keys), on top of core's patterns.
 */
export class Redactor {
  readonly #secrets: readonly string[];

  constructor(secrets: readonly string[] = []) {
    this.#secrets = secrets.filter((secret) => secret.length >= 8);
  }

  /** A string with every secret-shaped value replaced. */
  text(text: string): string {
    return redactSecrets(text, { secrets: this.#secrets });
  }

  /** A plain value (an object from a store, a tool's input) with every secret-shaped string replaced. */
  value<Value>(value: Value): Value {
    return redactSecrets(value, { secrets: this.#secrets });
  }

  /**
   * The first `limit` characters of `text`, redacted, with the whole text's
   * size. The redaction sees a little past the cut, so a key that straddles
   * it is recognised whole and never shown in part.
   */
  cut(text: string, limit: number): CutText {
    const size = utf8Length(text);
    if (text.length <= limit) return { text: this.text(text), size, cut: false };
    const margin = this.text(text.slice(0, limit + 256));
    return { text: margin.slice(0, limit), size, cut: true };
  }
}

/** UTF-8 length of a string without encoding it (a 20 MB output is measured, not copied). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
