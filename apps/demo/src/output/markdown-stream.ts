import { renderMarkdown } from './markdown.js';
import type { Style } from './terminal-style.js';

/**
 * Streams markdown to a terminal a line at a time: each complete line is
 * rendered as it arrives (code block lines too), a table once its last row
 * has arrived, and what is left at the end by `flush`. A line is the unit
 * because its markdown (a heading, a list item, emphasis) is known only once it is whole.
 */
export class MarkdownStream {
  readonly #write: (text: string) => void;
  readonly #style: Style;
  #pending = '';
  #fence: string | undefined;
  #table: string[] = [];
  #blank = true;

  constructor(write: (text: string) => void, style: Style) {
    this.#write = write;
    this.#style = style;
  }

  /** Adds streamed text; renders every line it completes. */
  push(delta: string): void {
    this.#pending += delta;
    let newline = this.#pending.indexOf('\n');
    while (newline !== -1) {
      this.#line(this.#pending.slice(0, newline));
      this.#pending = this.#pending.slice(newline + 1);
      newline = this.#pending.indexOf('\n');
    }
  }

  /** Renders whatever is left; true when anything was written since the last line break. */
  flush(): void {
    if (this.#pending !== '') this.#line(this.#pending);
    this.#pending = '';
    this.#endTable();
    this.#fence = undefined;
  }

  /** True when nothing is held back: the output ends at a line start. */
  get idle(): boolean {
    return this.#pending === '' && this.#table.length === 0;
  }

  #line(line: string): void {
    const style = this.#style;
    const fence = /^\s*(```+|~~~+)\s*(\S*)/.exec(line);
    if (this.#fence !== undefined) {
      if (fence?.[1]?.startsWith(this.#fence)) {
        this.#fence = undefined;
        this.#emit('');
      } else this.#emit(`${style.dim('│')} ${style.cyan(line)}`);
      return;
    }
    if (fence !== null) {
      this.#endTable();
      this.#fence = fence[1];
      if (fence[2]) this.#emit(style.dim(`╭ ${fence[2]}`));
      return;
    }
    if (/^\s*\|/.test(line)) {
      this.#table.push(line);
      return;
    }
    this.#endTable();
    if (line.trim() === '') {
      if (!this.#blank) this.#emit('');
      return;
    }
    this.#emit(renderMarkdown(line, style).replace(/\n+$/, ''));
  }

  #endTable(): void {
    if (this.#table.length === 0) return;
    const rows = this.#table.join('\n');
    this.#table = [];
    this.#emit(renderMarkdown(rows, this.#style).replace(/\n+$/, ''));
  }

  #emit(text: string): void {
    this.#blank = text === '';
    this.#write(`${text}\n`);
  }
}
