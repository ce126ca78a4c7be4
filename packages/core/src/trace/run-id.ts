import { hexDigitCodes, randomUint32 } from './trace-context.js';
const dash = 45;
/** The 36 character codes of the id being made; filled and read synchronously. */
const codes: number[] = new Array<number>(36).fill(dash);

/** Where the 32 hex digits go among the 36 characters of `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`. */
const positions: readonly number[] = Array.from({ length: 36 }, (_, index) => index).filter(
  (index) => index !== 8 && index !== 13 && index !== 18 && index !== 23,
);

/** Writes the 8 hex digits of `word` as digits `first` to `first + 7` of the id. */
function writeWord(word: number, first: number): void {
  for (let index = 0; index < 8; index++)
    codes[positions[first + index] as number] = hexDigitCodes[(word >>> (28 - 4 * index)) & 15] as number;
}

/**
 * A random version 4 UUID for a run, as one flat string. `crypto.randomUUID`
 * joins its digits by concatenation on Node 20, leaving a chain of some
 * twenty string pieces that every event and the result of the run keep alive.
 */
export function randomRunId(): string {
  writeWord(randomUint32(), 0);
  // The version (4) in the 13th digit, the variant (10xx) in the 17th.
  writeWord(((randomUint32() & 0xffff0fff) | 0x4000) >>> 0, 8);
  writeWord(((randomUint32() & 0x3fffffff) | 0x80000000) >>> 0, 16);
  writeWord(randomUint32(), 24);
  return String.fromCharCode.apply(undefined, codes);
}
