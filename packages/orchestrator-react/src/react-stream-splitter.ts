import { classifyLine, type ReactKeyword } from './react-line.js';

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
 */
export class ReactStreamSplitter {
  readonly #sink: ReactStreamSink;
  #part: Part = 'thought';
  #line = '';
  #decided = false;
  #whitespace = '';
  #sectionStart = true;
  #thoughtSent = false;
  #answer = '';
  #out = '';

  constructor(sink: ReactStreamSink) {
    this.#sink = sink;
  }

  /** The final-answer text sent so far. */
  get answer(): string {
    return this.#answer;
  }

  /** Takes the next piece of the reply. */
  push(delta: string): void {
    for (const character of delta) {
      if (this.#part === 'done') break;
      if (character === '\n') {
        if (!this.#decided) this.#decide(true);
        if (!this.#sectionStart) this.#whitespace += '\n';
        this.#line = '';
        this.#decided = false;
      } else if (this.#decided) {
        this.#content(character);
      } else {
        this.#line += character;
        this.#decide(false);
      }
    }
    this.#flush();
  }

  /** Ends the reply: a held last line is placed now. */
  end(): void {
    if (!this.#decided && this.#line !== '' && this.#part !== 'done') this.#decide(true);
    this.#flush();
  }

  #decide(complete: boolean): void {
    const start = classifyLine(this.#line, complete);
    if (start.kind === 'undecided') return;
    this.#decided = true;
    if (start.kind === 'content') {
      for (const character of this.#line) this.#content(character);
      return;
    }
    this.#switch(start.keyword);
    for (const character of this.#line.slice(start.contentStart)) this.#content(character);
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

  #content(character: string): void {
    if (this.#part === 'done') return;
    if (character.trim() === '') {
      if (!this.#sectionStart) this.#whitespace += character;
      return;
    }
    this.#out += this.#whitespace + character;
    this.#whitespace = '';
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
      this.#answer += out;
      this.#sink.answer(out);
    }
  }
}
