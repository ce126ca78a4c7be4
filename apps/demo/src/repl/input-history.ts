import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Lines kept across runs; older ones are dropped when the file is rewritten. */
export const historySize = 1000;
/** A line longer than this (a pasted document) is not kept: the up arrow is for lines a person typed. */
export const maxHistoryLine = 4096;

/**
 * The REPL's input history, kept in a file (oldest line first) under the XDG
 * state folder, so the up arrow reaches lines typed in earlier runs and
 * after restarts. A file that cannot be read or written never stops the REPL.
 */
export class InputHistory {
  readonly path: string;
  #count = 0;

  constructor(path: string) {
    this.path = path;
  }

  /** The saved lines, newest first (the order readline takes). */
  load(): string[] {
    try {
      const lines = readFileSync(this.path, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '' && line.length <= maxHistoryLine);
      this.#count = lines.length;
      return lines.slice(-historySize).reverse();
    } catch {
      return [];
    }
  }

  /** Appends a line; past twice the size the file is cut back to the newest `historySize`. */
  add(line: string): void {
    if (line.trim() === '' || line.includes('\n') || line.length > maxHistoryLine) return;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      appendFileSync(this.path, `${line}\n`, { mode: 0o600 });
      if (++this.#count > 2 * historySize) {
        const kept = readFileSync(this.path, 'utf8').split('\n').filter(Boolean).slice(-historySize);
        writeFileSync(this.path, `${kept.join('\n')}\n`, { mode: 0o600 });
        this.#count = kept.length;
      }
    } catch {
      // The history is a convenience: a read-only or full disk leaves it as it was.
    }
  }
}
