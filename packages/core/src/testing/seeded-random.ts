/**
 * A small seeded random source (mulberry32): the same seed gives the same
 * scripts in any runtime, so a failure printed with its seed replays exactly.
 */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let value = this.#state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  }

  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `chance`. */
  chance(chance: number): boolean {
    return this.next() < chance;
  }

  /** One of `items`. */
  pick<Item>(items: readonly Item[]): Item {
    return items[Math.floor(this.next() * items.length)] as Item;
  }

  /** `count` values made by `make`. */
  many<Item>(count: number, make: () => Item): Item[] {
    return Array.from({ length: count }, make);
  }
}

/** A seed for a run nobody gave one to, printed with any failure. */
export function randomSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}
