/** A keyword of the ReAct text protocol, lower case. */
export type ReactKeyword = 'thought' | 'action' | 'action input' | 'observation' | 'final answer';

// `action input` before `action`, so the longer keyword wins.
const keywords: readonly ReactKeyword[] = [
  'thought',
  'action input',
  'action',
  'observation',
  'final answer',
];

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

/** `text[start, to)` lower-cased against `keyword`: characters that match, up to the keyword's length. */
function matchedLength(text: string, start: number, to: number, keyword: string): number {
  const length = Math.min(keyword.length, to - start);
  let index = 0;
  for (; index < length; index++) {
    let code = text.charCodeAt(start + index);
    // Keywords are ASCII: upper-case ASCII letters are the only ones that lower-case into them.
    if (code >= 65 && code <= 90) code += 32;
    if (code !== keyword.charCodeAt(index)) break;
  }
  return index;
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
  let open = false;
  for (const keyword of keywords) {
    // Most lines are ruled out by their first letter, before any keyword is compared.
    if (keyword.charCodeAt(0) !== first) continue;
    const matched = matchedLength(text, start, to, keyword);
    if (matched < keyword.length) {
      // The line ended inside the keyword: more of it could still complete it.
      if (!complete && start + matched === to) open = true;
      continue;
    }
    let position = start + keyword.length;
    while (position < to && isPadding(text.charCodeAt(position))) position++;
    if (position === to) {
      if (!complete) open = true;
      continue;
    }
    if (text.charCodeAt(position) !== 58 /* : */) continue;
    position++;
    while (position < to && isPadding(text.charCodeAt(position))) position++;
    // Wait for the first character after the colon, so closing markdown is never taken for content.
    if (position === to && !complete) {
      open = true;
      continue;
    }
    return { kind: 'keyword', keyword, contentStart: position };
  }
  return open ? undecided : content;
}
