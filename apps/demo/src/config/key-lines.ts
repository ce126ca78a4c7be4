/**
 * The line of each key of a TOML document, as dotted paths (`providers.openai.base_url`),
 * so a value that fails validation can be named with its file and line. Keys of
 * inline tables take the line of the key that holds them.
 */
export function keyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  let table: string[] = [];
  let multiline: string | undefined;
  const all = text.split('\n');
  for (const [index, raw] of all.entries()) {
    const number = index + 1;
    if (multiline !== undefined) {
      // Inside a multi-line string nothing is a key, until the closing quotes.
      if (raw.includes(multiline)) multiline = undefined;
      continue;
    }
    const line = raw.trim();
    const header = /^\[\[?\s*(.+?)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header !== null) {
      table = splitKey(header[1] as string);
      record(lines, table, number);
      continue;
    }
    const assignment = /^((?:"[^"]*"|'[^']*'|[A-Za-z0-9_.\s-])+?)\s*=(.*)$/.exec(line);
    if (assignment === null) continue;
    record(lines, [...table, ...splitKey(assignment[1] as string)], number);
    const value = assignment[2] as string;
    for (const quotes of ['"""', "'''"]) {
      const at = value.indexOf(quotes);
      if (at !== -1 && value.indexOf(quotes, at + 3) === -1) multiline = quotes;
    }
  }
  return lines;
}

/** The line of `path`, or of the nearest table or key that holds it. */
export function lineOf(lines: Map<string, number>, path: readonly string[]): number | undefined {
  for (let length = path.length; length > 0; length--) {
    const line = lines.get(path.slice(0, length).join('.'));
    if (line !== undefined) return line;
  }
  return undefined;
}

// A dotted header or key (`[a.b]`, `a.b = 1`) also defines the tables that hold it: their first line is this one.
function record(lines: Map<string, number>, path: readonly string[], number: number): void {
  for (let length = 1; length <= path.length; length++) {
    const prefix = path.slice(0, length).join('.');
    if (!lines.has(prefix)) lines.set(prefix, number);
  }
}

function splitKey(key: string): string[] {
  const parts: string[] = [];
  for (const match of key.matchAll(/"([^"]*)"|'([^']*)'|([^.\s]+)/g))
    parts.push(match[1] ?? match[2] ?? match[3] ?? '');
  return parts;
}
