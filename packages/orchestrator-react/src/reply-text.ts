// Text helpers of the ReAct parser, written as scans rather than regular expressions: a model's
// reply can hold long runs of one character (a degenerate model repeats, a prompt injection
// can ask for it), and the patterns these replace backtracked over such runs in cubic or
// quadratic time. Each helper here reads its text a bounded number of times.

const backtick = 96;

/** `[\w-]`: the characters of a fence's language tag. */
function isTagCharacter(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95 ||
    code === 45
  );
}

/**
 * The text inside a code fence that opens the text (three or more backticks, an
 * optional language tag, then the body up to the next three backticks), or
 * inside a code span that is the whole text; otherwise the text as it is.
 */
export function unfenced(text: string): string {
  let run = 0;
  while (text.charCodeAt(run) === backtick) run++;
  if (run >= 3) {
    let start = run;
    while (start < text.length && isTagCharacter(text.charCodeAt(start))) start++;
    while (start < text.length && (text[start] === ' ' || text[start] === '\t')) start++;
    if (text[start] === '\n') start++;
    const close = text.indexOf('```', start);
    if (close >= 0) return text.slice(start, close).trim();
    // A run of six or more backticks opens and closes an empty fence by itself.
    if (run >= 6) return '';
  }
  // A code span that is the whole text: a backtick, no other, a backtick at the end.
  if (run >= 1 && text.length >= 2 && text.indexOf('`', 1) === text.length - 1)
    return text.slice(1, -1).trim();
  return text;
}

/** `text` without the characters of `characters` at its start (`fromStart`) or its end. */
function stripRun(text: string, characters: string, fromStart: boolean): string {
  if (fromStart) {
    let start = 0;
    while (start < text.length && characters.includes(text[start] as string)) start++;
    return text.slice(start);
  }
  let end = text.length;
  while (end > 0 && characters.includes(text[end - 1] as string)) end--;
  return text.slice(0, end);
}

/**
 * The tool name of an `Action:` section: its first line, without the quotes,
 * backticks, asterisks and brackets around it, a trailing `()`, and trailing
 * dots and colons.
 */
export function cleanToolName(text: string): string {
  // The common name needs no cleaning: one test, no copies.
  if (/^[\w-]+$/.test(text)) return text;
  const newline = text.indexOf('\n');
  let name = (newline < 0 ? text : text.slice(0, newline)).trim();
  name = stripRun(stripRun(name, '`\'"*[', true), '`\'"*]', false);
  const open = name.lastIndexOf('(');
  if (open >= 0 && name.endsWith(')') && name.slice(open + 1, -1).trim() === '') name = name.slice(0, open);
  return stripRun(name, '.:', false).trim();
}
