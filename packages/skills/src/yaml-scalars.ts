// The scalars of frontmatter YAML that need more than a line's reading: quoted ones and block ones.

/** The index of the quote that closes the one at `start`, or -1 when the line ends first. */
export function quotedEnd(text: string, start: number): number {
  const quote = text[start];
  for (let at = start + 1; at < text.length; at++) {
    const char = text[at];
    if (quote === '"' && char === '\\') {
      at++;
      continue;
    }
    if (char === quote) {
      if (quote === "'" && text[at + 1] === "'") {
        at++;
        continue;
      }
      return at;
    }
  }
  return -1;
}

/** The text of a quoted scalar (quotes included), its line breaks folded and, in double quotes, its escapes read. */
export function unquote(quoted: string, fail: (message: string, lineOffset: number) => never): string {
  const double = quoted[0] === '"';
  const inner = quoted.slice(1, -1);
  const lines = inner.split('\n');
  let out = '';
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index] as string;
    if (index > 0) line = line.replace(/^[ \t]+/, '');
    const last = index === lines.length - 1;
    if (!last) line = line.replace(/[ \t]+$/, '');
    if (double) {
      const escapedBreak = !last && /(^|[^\\])(\\\\)*\\$/.test(line);
      out += escapes(escapedBreak ? line.slice(0, -1) : line, (message) => fail(message, index));
      if (escapedBreak) continue;
    } else {
      out += line.replaceAll("''", "'");
    }
    if (last) break;
    // A line break folds to a space; each blank line after it stands for one newline.
    let blank = 0;
    while (index + 1 < lines.length - 1 && (lines[index + 1] as string).trim() === '') {
      blank++;
      index++;
    }
    out += blank > 0 ? '\n'.repeat(blank) : ' ';
  }
  return out;
}

function escapes(text: string, fail: (message: string) => never): string {
  const simple: Readonly<Record<string, string>> = {
    '0': '\0',
    a: '\x07',
    b: '\b',
    t: '\t',
    '\t': '\t',
    n: '\n',
    v: '\v',
    f: '\f',
    r: '\r',
    e: '\x1b',
    ' ': ' ',
    '"': '"',
    '/': '/',
    '\\': '\\',
    N: '\x85',
    _: '\xa0',
    L: '\u2028',
    P: '\u2029',
  };
  return text.replace(
    /\\(x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[\s\S]?)/g,
    (_match, code: string) => {
      if (code.length > 1) {
        const point = Number.parseInt(code.slice(1), 16);
        if (point > 0x10ffff) fail(`the escape \\${code} is not a Unicode character`);
        return String.fromCodePoint(point);
      }
      const char = simple[code];
      if (char === undefined)
        fail(`'\\${code}' is not an escape of double-quoted YAML; write '\\\\' for a backslash`);
      return char;
    },
  );
}

/**
 * The text of a block scalar from its lines (its indentation already taken
 * off): folding (`>`) and chomping (`-` strip, `+` keep, none clip) as YAML
 * 1.2 defines them; lines of spaces only count as empty.
 */
export function foldBlockLines(lines: readonly string[], folded: boolean, chomping: string): string {
  let result = '';
  let empty = 0;
  let read = false;
  let moreIndented = false;
  for (const line of lines) {
    if (line.trim() === '') {
      empty++;
      continue;
    }
    if (folded) {
      if (line.startsWith(' ') || line.startsWith('\t')) {
        moreIndented = true;
        result += '\n'.repeat(read ? 1 + empty : empty);
      } else if (moreIndented) {
        moreIndented = false;
        result += '\n'.repeat(empty + 1);
      } else if (empty === 0) {
        if (read) result += ' ';
      } else {
        result += '\n'.repeat(empty);
      }
    } else {
      result += '\n'.repeat(read ? 1 + empty : empty);
    }
    result += line;
    read = true;
    empty = 0;
  }
  if (chomping === '+') result += '\n'.repeat(read ? 1 + empty : empty);
  else if (chomping === '' && read) result += '\n';
  return result;
}
