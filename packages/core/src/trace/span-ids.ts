import { hexOfWords, randomUint32 } from './trace-context.js';

/** How many recent span ids are kept as strings: a turn's id is read by each of its calls. */
const cacheSize = 8;

/**
 * The span ids of one run. A span is a number (1, 2, 3… in the order the run
 * opens them; 0 is the run's root span) until something needs its W3C id: the
 * 16-hex id is then derived from the number by a permutation keyed with four
 * random words per run, so ids are distinct within a run, look random across
 * runs, and cost nothing while no event object is made. A run whose events
 * nobody is reading keeps numbers, not strings.
 */
export class SpanIds {
  /** The run's root span id (random, or the caller's span when the prompt joined a trace). */
  readonly root: string;
  /** The number the next span gets. */
  next = 1;
  readonly #k0 = randomUint32() | 0;
  readonly #k1 = randomUint32() | 0;
  readonly #k2 = randomUint32() | 0;
  readonly #k3 = randomUint32() | 0;
  /** Recent ids by `span & 7`, made when the first id is asked for: a run nobody reads never needs them. */
  #cachedSpans: number[] | undefined;
  #cachedTexts: string[] | undefined;

  constructor(root: string) {
    this.root = root;
  }

  /** Opens a span: its number. */
  open(): number {
    return this.next++;
  }

  /** The 16-hex W3C id of span `span` (0: the run's root). */
  text(span: number): string {
    if (span === 0) return this.root;
    const slot = span & (cacheSize - 1);
    let spans = this.#cachedSpans;
    let texts = this.#cachedTexts as string[];
    if (spans === undefined) {
      spans = this.#cachedSpans = [-1, -1, -1, -1, -1, -1, -1, -1];
      texts = this.#cachedTexts = ['', '', '', '', '', '', '', ''];
    } else if (spans[slot] === span) return texts[slot] as string;
    const text = this.#derive(span);
    spans[slot] = span;
    texts[slot] = text;
    return text;
  }

  /**
   * Four rounds of a Feistel network over two 32-bit halves: a bijection, so
   * two spans of a run never share an id. The all-zero id (invalid in W3C
   * trace context) is mapped to another, at a 2⁻⁶⁴ chance of a repeat.
   */
  #derive(span: number): string {
    let left = 0;
    let right = span | 0;
    left ^= mix(right, this.#k0);
    right ^= mix(left, this.#k1);
    left ^= mix(right, this.#k2);
    right ^= mix(left, this.#k3);
    if ((left | right) === 0) right = 1;
    return hexOfWords(left, right);
  }
}

/** The round function: a keyed 32-bit integer hash (murmur3's finalizer). */
function mix(value: number, key: number): number {
  let x = Math.imul(value ^ key, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  return x ^ (x >>> 16);
}
