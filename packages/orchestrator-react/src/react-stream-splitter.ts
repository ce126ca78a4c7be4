import { classifyRange, isWhitespace, type ReactKeyword } from './react-line.js';

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
 * A delta costs one scan for a line break: a line is classified once, when
 * its first characters decide it, not per character, and a delta of plain
 * text is passed on as it is. A delta that ends in whitespace goes out when
 * the next text of its section arrives (whole), or at the section's end
 * (without the whitespace, as the parser trims it).
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
  // What goes before the first text of a section: a line break when a thought continues.
  #separator = '';
  // A whole delta that ends in whitespace, held until it is known whether text follows it,
  // and where its text ends.
  #held = '';
  #heldTextEnd = 0;
  #thoughtSent = false;
  // The answer's deltas, made on the first: a thought-and-action step allocates none.
  #answer: string[] | undefined;
  #out = '';

  constructor(sink: ReactStreamSink) {
    this.#sink = sink;
  }

  /** The final-answer text sent so far. */
  get answer(): string {
    return this.#answer === undefined ? '' : this.#answer.join('');
  }

  /** Takes the next piece of the reply. */
  push(delta: string): void {
    const length = delta.length;
    // The usual delta: more text in the middle of a thought or answer line, with no line break.
    // It goes out as it is (or is held, if it ends in whitespace) without the general walk below.
    if (
      this.#decided &&
      !this.#sectionStart &&
      this.#whitespace === '' &&
      (this.#part === 'thought' || this.#part === 'answer') &&
      length > 0 &&
      delta.indexOf('\n') < 0
    ) {
      const held = this.#held;
      if (!isWhitespace(delta.charCodeAt(length - 1))) {
        this.#held = '';
        this.#send(held === '' ? delta : held + delta);
        return;
      }
      let textEnd = length - 1;
      while (textEnd > 0 && isWhitespace(delta.charCodeAt(textEnd - 1))) textEnd--;
      if (textEnd > 0) {
        this.#held = delta;
        this.#heldTextEnd = textEnd;
        if (held !== '') this.#send(held);
        return;
      }
    }
    let from = 0;
    while (from < length && this.#part !== 'done') {
      const newline = delta.indexOf('\n', from);
      const end = newline < 0 ? length : newline;
      if (this.#decided) {
        if (end > from) this.#content(delta, from, end);
      } else {
        // The line so far is classified in place; it is copied only when held for the next delta.
        const held = this.#line;
        if (held === '') this.#decide(delta, from, end, newline >= 0);
        else {
          const line = held + delta.slice(from, end);
          this.#decide(line, 0, line.length, newline >= 0);
        }
      }
      if (newline < 0) break;
      this.#resolve();
      if (!this.#sectionStart && this.#part !== 'action') this.#whitespace += '\n';
      this.#line = '';
      this.#decided = false;
      from = newline + 1;
    }
    this.#flush();
  }

  /** Ends the reply: a held last line is placed now. */
  end(): void {
    const held = this.#line;
    if (!this.#decided && held !== '' && this.#part !== 'done') this.#decide(held, 0, held.length, true);
    this.#resolve();
    this.#flush();
  }

  /**
   * Classifies the line `text[from, to)` (all of it seen so far). A line is decided by its first
   * characters and the decision never changes as more arrive, so classifying the whole
   * piece at once places it as classifying it character by character would.
   */
  #decide(text: string, from: number, to: number, complete: boolean): void {
    const start = classifyRange(text, from, to, complete);
    if (start.kind === 'undecided') {
      this.#line = from === 0 && to === text.length ? text : text.slice(from, to);
      return;
    }
    this.#line = '';
    this.#decided = true;
    if (start.kind === 'content') {
      this.#content(text, from, to);
      return;
    }
    this.#switch(start.keyword);
    this.#content(text, start.contentStart, to);
  }

  #switch(keyword: ReactKeyword): void {
    this.#resolve();
    this.#flush();
    // After an action nothing more is shown: the parser takes the first action or answer, and the
    // thought before it, so a later Thought or Final Answer would stream text the step never uses.
    const next: Part =
      this.#part === 'answer' || keyword === 'observation'
        ? 'done'
        : this.#part === 'action'
          ? 'action'
          : keyword === 'thought'
            ? 'thought'
            : keyword === 'final answer'
              ? 'answer'
              : 'action';
    // Another Thought line continues the thought on a new line, as the parser joins the
    // sections, each trimmed: the line break goes out before the section's first text, if any.
    this.#separator = next === 'thought' && this.#thoughtSent ? '\n' : '';
    this.#whitespace = '';
    this.#sectionStart = true;
    this.#part = next;
  }

  /** Places `text[from, to)`, a stretch of one line with no line break in it. */
  #content(text: string, from: number, to: number): void {
    // An action's text goes nowhere, and the next keyword resets the whitespace it would hold.
    if (this.#part === 'done' || this.#part === 'action' || from >= to) return;
    let first = from;
    while (first < to && isWhitespace(text.charCodeAt(first))) first++;
    if (first === to) {
      this.#resolve();
      if (!this.#sectionStart) this.#whitespace += text.slice(from, to);
      return;
    }
    // Text follows a held delta: all of it goes out, its trailing whitespace included.
    if (this.#held !== '') {
      this.#out += this.#held;
      this.#held = '';
    }
    let last = to;
    while (isWhitespace(text.charCodeAt(last - 1))) last--;
    // Whitespace before the text is sent with it, except at the start of a section.
    const before = this.#sectionStart ? this.#separator : this.#whitespace;
    const start = this.#sectionStart ? first : from;
    this.#whitespace = '';
    this.#sectionStart = false;
    if (last < to) {
      // Text that ends in whitespace is held, whole, not cut in two: it goes out as it is when
      // more text of its section arrives, or without its whitespace when the section ends.
      // A delta of plain text is then passed on as it is: no slice and no concatenation.
      this.#out += before;
      this.#held = start === 0 && to === text.length ? text : text.slice(start, to);
      this.#heldTextEnd = last - start;
      return;
    }
    this.#out += before + (start === 0 && to === text.length ? text : text.slice(start, last));
  }

  /** Places a held delta as text and whitespace, when what comes next is not text of its section. */
  #resolve(): void {
    const held = this.#held;
    if (held === '') return;
    this.#held = '';
    this.#out += held.slice(0, this.#heldTextEnd);
    this.#whitespace = held.slice(this.#heldTextEnd);
  }

  #flush(): void {
    const out = this.#out;
    if (out === '') return;
    this.#out = '';
    this.#send(out);
  }

  /** Sends placed text to the sink of the part it belongs to. */
  #send(out: string): void {
    if (this.#part === 'thought') {
      this.#thoughtSent = true;
      this.#sink.thought(out);
    } else if (this.#part === 'answer') {
      if (this.#answer === undefined) this.#answer = [out];
      else this.#answer.push(out);
      this.#sink.answer(out);
    }
  }
}
