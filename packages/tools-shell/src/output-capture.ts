import { StringDecoder } from 'node:string_decoder';

/**
 * Collects one output stream up to a byte cap, keeping the first half and the
 * last half of the cap and counting what fell in between, so a long output
 * still shows how it started and how it ended.
 */
export class OutputCapture {
  readonly #headLimit: number;
  readonly #tailLimit: number;
  readonly #head: Buffer[] = [];
  #headBytes = 0;
  #tail: Buffer[] = [];
  #tailBytes = 0;
  #totalBytes = 0;

  constructor(maxBytes: number) {
    this.#headLimit = Math.ceil(maxBytes / 2);
    this.#tailLimit = maxBytes - this.#headLimit;
  }

  /** Bytes received in all, kept or not. */
  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** Bytes left out of `text()`. */
  get droppedBytes(): number {
    return this.#totalBytes - this.#headBytes - Math.min(this.#tailBytes, this.#tailLimit);
  }

  /** Adds a chunk: into the head until it is full, then into the rolling tail. */
  append(chunk: Buffer): void {
    this.#totalBytes += chunk.length;
    let rest = chunk;
    if (this.#headBytes < this.#headLimit) {
      const taken = rest.subarray(0, this.#headLimit - this.#headBytes);
      this.#head.push(taken);
      this.#headBytes += taken.length;
      rest = rest.subarray(taken.length);
    }
    if (rest.length === 0 || this.#tailLimit === 0) return;
    this.#tail.push(rest);
    this.#tailBytes += rest.length;
    // Drop whole chunks that the tail no longer needs; the first kept one is cut in text().
    while (this.#tail.length > 1 && this.#tailBytes - (this.#tail[0] as Buffer).length >= this.#tailLimit) {
      this.#tailBytes -= (this.#tail.shift() as Buffer).length;
    }
  }

  /** The kept text, with a note in the middle saying how many bytes were dropped. */
  text(): string {
    const head = Buffer.concat(this.#head);
    let tail = Buffer.concat(this.#tail);
    if (tail.length > this.#tailLimit) tail = tail.subarray(tail.length - this.#tailLimit);
    if (this.droppedBytes === 0) return Buffer.concat([head, tail]).toString('utf8');
    // Cut on character boundaries: no broken character at either side of the gap.
    const headText = new StringDecoder('utf8').write(head);
    let start = 0;
    while (start < tail.length && ((tail[start] as number) & 0xc0) === 0x80) start++;
    const keptHead = Buffer.byteLength(headText);
    const keptTail = tail.length - start;
    const dropped = this.#totalBytes - keptHead - keptTail;
    return (
      `${headText}\n[... ${dropped} bytes dropped: showing the first ${keptHead} and the last ${keptTail} ` +
      `bytes of ${this.#totalBytes} ...]\n${tail.subarray(start).toString('utf8')}`
    );
  }
}
