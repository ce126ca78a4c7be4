// A scan, not a regular expression: the pattern it replaces backtracked in quadratic time over a
// long run of spaces after an opening fence, which a degenerate model can write.

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
 * The part of a plan reply that holds its JSON, trimmed: the body of the first
 * code fence (three backticks, an optional language tag, the body up to the
 * next three backticks), or the whole reply when it has no closed fence.
 */
export function planText(reply: string): string {
  const open = reply.indexOf('```');
  if (open >= 0) {
    let start = open + 3;
    while (start < reply.length && isTagCharacter(reply.charCodeAt(start))) start++;
    while (start < reply.length && (reply[start] === ' ' || reply[start] === '\t')) start++;
    if (reply[start] === '\n') start++;
    const close = reply.indexOf('```', start);
    if (close >= 0) return reply.slice(start, close).trim();
  }
  return reply.trim();
}
