/**
 * A 64-bit hash of text fed in pieces, in two 32-bit lanes (multiplicative,
 * as cyrb53). Not for security: it keys recorded requests, so a request is
 * found in a cassette without comparing it whole, and a long conversation's
 * key is extended by its new messages only.
 */
export type HashState = readonly [number, number];

/** The state before any text. */
export const emptyHash: HashState = [0xdeadbeef, 0x41c6ce57];

/**
 * The state after `text`, preceded by a separator that JSON text never holds
 * raw (a control character), so pieces never run into each other.
 */
export function hashText(state: HashState, text: string): HashState {
  let first = Math.imul(state[0] ^ 1, 2654435761);
  let second = Math.imul(state[1] ^ 1, 1597334677);
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 2654435761);
    second = Math.imul(second ^ code, 1597334677);
  }
  return [first, second];
}

/** The key of a state: both lanes mixed, as text. */
export function hashKey(state: HashState): string {
  let first = state[0];
  let second = state[1];
  first = Math.imul(first ^ (first >>> 16), 2246822507) ^ Math.imul(second ^ (second >>> 13), 3266489909);
  second = Math.imul(second ^ (second >>> 16), 2246822507) ^ Math.imul(first ^ (first >>> 13), 3266489909);
  return `${(first >>> 0).toString(36)}.${(second >>> 0).toString(36)}`;
}
