import { classifyLine, isWhitespace, type ReactKeyword } from './react-line.js';

type Part = 'thought' | 'action' | 'answer' | 'done';

/** Where the splitter sends the text it has placed. */
export interface ReactStreamSink {
  thought(delta: string): void;
  answer(delta: string): void;
}

/**
 * Splits a streamed ReAct reply as it arrives: thought text goes to
 * `sink.thought`, final-answer text to `sink.answer`, actions and anything
 * after an `Observation:` nowhere. A line is held only while it could still
 * be a keyword line, and whitespace only until text follows it, so the
 * answer streamed equals the parsed answer exactly.
 *
 * A delta costs one scan for a line break and, once its line is known, at
 * most one slice: a line is classified once, when it is decided, not per
 * character, and a delta of plain text is passed on as it is.
 */
export class ReactStreamSplitter {
  readonly #sink: ReactStreamSink;
  #part: Part = 'thought';
  // The start of a line not yet known to be a keyword line or content.
  #line = '';
  #decided = false;
  // Whitespace seen since the last text of the section: sent only when text follows it.
  #whitespace = '';
  #sectionStart = true;
  #thoughtSent = false;
  readonly #answer: string[] = [];
  #out = '';

  constructor(sink: ReactStreamSink) {
    this.#sink = sink;
  }

  /** The final-answer text sent so far. */
  get answer(): string {
    return this.#answer.join('');
  }

  /** Takes the next piece of the reply. */
  push(delta: string): void {
    const length = delta.length;
    let from = 0;
    while (from < length && this.#part !== 'done') {
      const newline = delta.indexOf('\n', from);
      const end = newline < 0 ? length : newline;
      if (this.#decided) {
        if (end > from) this.#content(delta, from, end);
      } else {
        // Only the part of the line seen so far is classified: by the first character that
        // decides it, as the classification never changes once decided.
        const piece = from === 0 && end === length ? delta : delta.slice(from, end);
        this.#decide(this.#line === '' ? piece : this.#line + piece, newline >= 0);
      }
      if (newline < 0) break;
      if (!this.#sectionStart && this.#part !== 'action') this.#whitespace += '\n';
      this.#line = '';
      this.#decided = false;
      from = newline + 1;
    }
    this.#flush();
  }

  /** Ends the reply: a held last line is placed now. */
  end(): void {
    if (!this.#decided && this.#line !== '' && this.#part !== 'done') this.#decide(this.#line, true);
    this.#flush();
  }

  #decide(line: string, complete: boolean): void {
    const start = classifyLine(line, complete);
    if (start.kind === 'undecided') {
      this.#line = line;
      return;
    }
    this.#line = '';
    this.#decided = true;
    if (start.kind === 'content') {
      this.#content(line, 0, line.length);
      return;
    }
    this.#switch(start.keyword);
    this.#content(line, start.contentStart, line.length);
  }

  #switch(keyword: ReactKeyword): void {
    this.#flush();
    const next: Part =
      this.#part === 'answer' || keyword === 'observation'
        ? 'done'
        : keyword === 'thought'
          ? 'thought'
          : keyword === 'final answer'
            ? 'answer'
            : 'action';
    // Another Thought line continues the thought on a new line, as the parser joins them.
    this.#whitespace = next === 'thought' && this.#thoughtSent ? '\n' : '';
    this.#sectionStart = !(next === 'thought' && this.#thoughtSent);
    this.#part = next;
  }

  /** Places `text[from, to)`, a stretch of one line with no line break in it. */
  #content(text: string, from: number, to: number): void {
    // An action's text goes nowhere, and the next keyword resets the whitespace it would hold.
    if (this.#part === 'done' || this.#part === 'action' || from >= to) return;
    let first = from;
    while (first < to && isWhitespace(text.charCodeAt(first))) first++;
    if (first === to) {
      if (!this.#sectionStart) this.#whitespace += text.slice(from, to);
      return;
    }
    let last = to;
    while (isWhitespace(text.charCodeAt(last - 1))) last--;
    // Whitespace before the text is sent with it, except at the start of a section.
    const before = this.#sectionStart ? '' : this.#whitespace + text.slice(from, first);
    this.#out += before + text.slice(first, last);
    this.#whitespace = last === to ? '' : text.slice(last, to);
    this.#sectionStart = false;
  }

  #flush(): void {
    const out = this.#out;
    if (out === '') return;
    this.#out = '';
    if (this.#part === 'thought') {
      this.#thoughtSent = true;
      this.#sink.thought(out);
    } else if (this.#part === 'answer') {
      this.#answer.push(out);
      this.#sink.answer(out);
    }
  }
}
