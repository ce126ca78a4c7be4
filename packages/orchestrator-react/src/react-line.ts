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

const decoration = /[\s*_#>]/;

/**
 * Classifies a line by its start. Keywords count only at the start of a line,
 * in any case, with optional markdown around them (`**Final Answer:**`).
 * A partial line (`complete` false) may be `undecided` while it could still
 * become a keyword line; the answer never changes as more of the line arrives.
 */
export function classifyLine(line: string, complete: boolean): LineStart {
  let start = 0;
  while (start < line.length && decoration.test(line[start] as string)) start++;
  const rest = line.slice(start).toLowerCase();
  let undecided = false;
  for (const keyword of keywords) {
    if (!rest.startsWith(keyword)) {
      if (!complete && keyword.startsWith(rest)) undecided = true;
      continue;
    }
    let position = keyword.length;
    while (position < rest.length && /[ \t*_]/.test(rest[position] as string)) position++;
    if (position === rest.length) {
      if (!complete) undecided = true;
      continue;
    }
    if (rest[position] !== ':') continue;
    position++;
    while (position < rest.length && /[ \t*_]/.test(rest[position] as string)) position++;
    // Wait for the first character after the colon, so closing markdown is never taken for content.
    if (position === rest.length && !complete) {
      undecided = true;
      continue;
    }
    return { kind: 'keyword', keyword, contentStart: start + position };
  }
  return undecided ? { kind: 'undecided' } : { kind: 'content' };
}
