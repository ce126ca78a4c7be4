import type { Cassette } from './cassette-data.js';

/** Cassettes this package made (parsed, recorded, read from a session): their messages are canonical already. */
const made = new WeakSet<Cassette>();

/** Marks a cassette this package made, so loading it skips making its messages canonical again. */
export function madeCanonical(cassette: Cassette): Cassette {
  made.add(cassette);
  return cassette;
}

/** Whether this package made `cassette`. */
export function isMadeCanonical(cassette: Cassette): boolean {
  return made.has(cassette);
}
