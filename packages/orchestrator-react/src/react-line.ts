/** A keyword of the ReAct text protocol, lower case. */
export type ReactKeyword = 'thought' | 'action' | 'action input' | 'observation' | 'final answer';

/** How a line of a reply starts: with a protocol keyword, as plain content, or not known yet. */
export type LineStart =
  | { kind: 'keyword'; keyword: ReactKeyword; contentStart: number }
  | { kind: 'content' }
  | { kind: 'undecided' };

// The two answers without a keyword are shared: classifying a line allocates nothing unless it is a keyword line.
const content: LineStart = { kind: 'content' };
const undecided: LineStart = { kind: 'undecided' };

/**
 * True for the characters `String.prototype.trim` removes (and `\s` matches):
 * read by code, as the stream splitter and the classifier look at every character.
 */
export function isWhitespace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Markdown and whitespace that may come before a keyword: `**`, `_`, `#`, `>`. */
function isDecoration(code: number): boolean {
  return code === 42 || code === 95 || code === 35 || code === 62 || isWhitespace(code);
}

/** Space, tab, `*` or `_`: what may sit between a keyword and its colon, or after the colon. */
function isPadding(code: number): boolean {
  return code === 32 || code === 9 || code === 42 || code === 95;
}

// What `keywordAt` answers besides a content start: no keyword here, or not known yet.
const noKeyword = -1;
const openKeyword = -2;

/**
 * Whether `text[start, to)` starts with `keyword` (in any case) and its colon: the index
 * where the content starts, `noKeyword`, or `openKeyword` while more of the line could still
 * make it one (`complete` false).
 */
function keywordAt(text: string, start: number, to: number, keyword: string, complete: boolean): number {
  const length = keyword.length;
  const available = Math.min(to - start, length);
  for (let index = 0; index < available; index++) {
    let code = text.charCodeAt(start + index);
    // Keywords are ASCII: upper-case ASCII letters are the only ones that lower-case into them.
    if (code >= 65 && code <= 90) code += 32;
    if (code !== keyword.charCodeAt(index)) return noKeyword;
  }
  // The line ended inside the keyword: more of it could still complete it.
  if (available < length) return complete ? noKeyword : openKeyword;
  let position = start + length;
  while (position < to && isPadding(text.charCodeAt(position))) position++;
  if (position === to) return complete ? noKeyword : openKeyword;
  if (text.charCodeAt(position) !== 58 /* : */) return noKeyword;
  position++;
  while (position < to && isPadding(text.charCodeAt(position))) position++;
  // Wait for the first character after the colon, so closing markdown is never taken for content.
  if (position === to && !complete) return openKeyword;
  return position;
}

/**
 * Classifies a line by its start. Keywords count only at the start of a line,
 * in any case, with optional markdown around them (`**Final Answer:**`).
 * A partial line (`complete` false) may be `undecided` while it could still
 * become a keyword line; the answer never changes as more of the line arrives.
 */
export function classifyLine(line: string, complete: boolean): LineStart {
  return classifyRange(line, 0, line.length, complete);
}

/**
 * `classifyLine` for the line `text[from, to)`, read in place (no slice per
 * line); a keyword's `contentStart` is an index into `text`.
 */
export function classifyRange(text: string, from: number, to: number, complete: boolean): LineStart {
  let start = from;
  while (start < to && isDecoration(text.charCodeAt(start))) start++;
  if (start === to) return complete ? content : undecided;
  let first = text.charCodeAt(start);
  if (first >= 65 && first <= 90) first += 32;
  // Most lines are ruled out by their first letter, before any keyword is compared.
  let keyword: ReactKeyword;
  let found: number;
  if (first === 116 /* t */) found = keywordAt(text, start, to, (keyword = 'thought'), complete);
  else if (first === 111 /* o */) found = keywordAt(text, start, to, (keyword = 'observation'), complete);
  else if (first === 102 /* f */) found = keywordAt(text, start, to, (keyword = 'final answer'), complete);
  else if (first === 97 /* a */) {
    // `action input` before `action`, so the longer keyword wins.
    const input = keywordAt(text, start, to, 'action input', complete);
    if (input >= 0) return { kind: 'keyword', keyword: 'action input', contentStart: input };
    found = keywordAt(text, start, to, (keyword = 'action'), complete);
    if (found === noKeyword && input === openKeyword) found = openKeyword;
  } else return content;
  if (found >= 0) return { kind: 'keyword', keyword, contentStart: found };
  return found === openKeyword ? undecided : content;
}
