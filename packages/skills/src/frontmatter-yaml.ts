import { foldBlockLines, quotedEnd, unquote } from './yaml-scalars.js';

/**
 * A value of `SKILL.md` frontmatter: every scalar is a string (as the Agent
 * Skills reference validator reads them, so `version: 1.0` is `'1.0'`), an
 * empty value is null, and lists and mappings hold the same.
 */
export type YamlValue = string | null | YamlValue[] | YamlMap;

/** A mapping of frontmatter, without a prototype (a key `__proto__` is a key like any other). */
export interface YamlMap {
  [key: string]: YamlValue;
}

/** The frontmatter's values and the line each key is on (`metadata.version` for a nested one). */
export interface ParsedYaml {
  value: YamlMap;
  lines: ReadonlyMap<string, number>;
}

/** YAML the frontmatter parser refused: what is wrong and on which line of the file. */
export class YamlSubsetError extends Error {
  readonly line: number;

  constructor(message: string, line: number) {
    super(message);
    this.name = 'YamlSubsetError';
    this.line = line;
  }
}

// Deeper nesting has no use in frontmatter; the limit keeps the recursion shallow.
const maxDepth = 8;
const refusedStart: Readonly<Record<string, string>> = {
  '&': 'anchors (&name) are not supported in SKILL.md frontmatter; write the value out',
  '*': 'aliases (*name) are not supported in SKILL.md frontmatter; write the value out',
  '!': 'tags (!name) are not supported in SKILL.md frontmatter; remove the tag',
  '{': "flow mappings ({ ... }) are not supported in SKILL.md frontmatter; write one 'key: value' per line",
  ',': "',' may not start a plain value in YAML; put the value in quotes",
  ']': "']' may not start a plain value in YAML; put the value in quotes",
  '}': "'}' may not start a plain value in YAML; put the value in quotes",
  '%': 'directives (%...) are not supported in SKILL.md frontmatter',
  '@': "'@' may not start a plain value in YAML; put the value in quotes",
  '`': "'`' may not start a plain value in YAML; put the value in quotes",
};

/**
 * Parses the YAML of `SKILL.md` frontmatter: a strict subset, as people write
 * it (block mappings and lists, plain, single- and double-quoted scalars over
 * one or more lines, literal `|` and folded `>` block scalars with their
 * chomping and indentation indicators, one-line or multi-line `[a, b]` lists,
 * comments). Anchors, aliases, tags, flow mappings, complex keys, directives,
 * tabs as indentation and duplicate keys are refused with a `YamlSubsetError`
 * naming the line, so nothing can expand without bound. `firstLine` is the
 * file's line number of the text's first line.
 */
export function parseFrontmatterYaml(text: string, firstLine = 1): ParsedYaml {
  const rows = text.split('\n');
  // The line break that ends the last line starts no line of its own.
  if (rows.at(-1) === '') rows.pop();
  const parser = new Parser(rows, firstLine);
  return { value: parser.document(), lines: parser.keyLines };
}

class Parser {
  readonly keyLines = new Map<string, number>();
  #index = 0;

  constructor(
    readonly rows: string[],
    readonly firstLine: number,
  ) {}

  document(): YamlMap {
    const start = this.#nextContent();
    if (start === undefined) return Object.create(null) as YamlMap;
    if (this.#indent(start) !== 0)
      this.#fail("the first key is indented; start it at the line's beginning", start);
    const map = this.#mapping(0, '', 0);
    const rest = this.#nextContent();
    if (rest !== undefined)
      this.#fail('this line is not a "key: value" of the frontmatter (check its indentation)', rest);
    return map;
  }

  #fail(message: string, row: number): never {
    throw new YamlSubsetError(message, this.firstLine + row);
  }

  /** The number of leading spaces; a tab among them is refused, as YAML does. */
  #indent(row: number): number {
    const line = this.rows[row] as string;
    let count = 0;
    while (line[count] === ' ') count++;
    if (line[count] === '\t' && line.slice(count).trim() !== '')
      this.#fail('a tab is used for indentation; YAML indents with spaces only', row);
    return count;
  }

  #isBlank(row: number): boolean {
    const trimmed = (this.rows[row] as string).trim();
    return trimmed === '' || trimmed.startsWith('#');
  }

  /** The next row that holds more than spaces or a comment, from the current one; the current index is left there. */
  #nextContent(): number | undefined {
    while (this.#index < this.rows.length && this.#isBlank(this.#index)) this.#index++;
    return this.#index < this.rows.length ? this.#index : undefined;
  }

  #mapping(indent: number, path: string, depth: number): YamlMap {
    if (depth > maxDepth) this.#fail(`values are nested more than ${maxDepth} levels deep`, this.#index);
    const map = Object.create(null) as YamlMap;
    for (let row = this.#nextContent(); row !== undefined; row = this.#nextContent()) {
      const rowIndent = this.#indent(row);
      if (rowIndent < indent) break;
      if (rowIndent > indent) this.#fail('this line is indented more than the keys above it', row);
      const text = (this.rows[row] as string).slice(indent);
      if (text === '-' || text.startsWith('- '))
        this.#fail('a list item stands where a "key: value" was expected', row);
      const { key, rest } = this.#key(text, row);
      const fullKey = path === '' ? key : `${path}.${key}`;
      if (Object.hasOwn(map, key)) this.#fail(`the key '${key}' appears twice; keep one`, row);
      this.keyLines.set(fullKey, this.firstLine + row);
      this.#index = row + 1;
      map[key] = this.#value(rest, indent, row, fullKey, depth);
    }
    return map;
  }

  #key(text: string, row: number): { key: string; rest: string } {
    const first = text[0] as string;
    if (first === '"' || first === "'") {
      const end = quotedEnd(text, 0);
      if (end === -1 || text[end + 1] !== ':' || (text[end + 2] !== undefined && text[end + 2] !== ' '))
        this.#fail('a quoted key must be closed on its line and followed by ": "', row);
      return {
        key: unquote(text.slice(0, end + 1), (message) => this.#fail(message, row)),
        rest: text.slice(end + 2).trim(),
      };
    }
    if (Object.hasOwn(refusedStart, first)) this.#fail(refusedStart[first] as string, row);
    if (text === '?' || text.startsWith('? '))
      this.#fail("complex keys (? ...) are not supported in SKILL.md frontmatter; write 'key: value'", row);
    const colon = text.search(/:( |$)/);
    if (colon <= 0) this.#fail('expected "key: value"', row);
    const key = text.slice(0, colon).trimEnd();
    if (key.includes(' #')) this.#fail('expected "key: value"', row);
    return { key, rest: text.slice(colon + 1).trim() };
  }

  /** The value after `key:` (or `- `): `rest` is the rest of its line; lines after it belong to it while indented past `indent`. */
  #value(rest: string, indent: number, row: number, path: string, depth: number): YamlValue {
    if (rest === '' || rest.startsWith('#')) {
      const next = this.#nextContent();
      if (next === undefined) return null;
      const nextIndent = this.#indent(next);
      const text = (this.rows[next] as string).slice(nextIndent);
      const isItem = text === '-' || text.startsWith('- ');
      if (isItem && nextIndent >= indent) return this.#sequence(nextIndent, path, depth + 1);
      if (nextIndent > indent) return this.#mapping(nextIndent, path, depth + 1);
      return null;
    }
    const first = rest[0] as string;
    if (first === '|' || first === '>') return this.#blockScalar(rest, indent, row);
    if (first === '"' || first === "'") return this.#quotedValue(rest, row);
    if (first === '[') return this.#flowSequence(rest, row);
    if (first === '-' && (rest[1] === ' ' || rest[1] === undefined))
      this.#fail('a list may not start on the line of its key; put each "- item" on a line of its own', row);
    if (Object.hasOwn(refusedStart, first)) this.#fail(refusedStart[first] as string, row);
    return this.#plainScalar(rest, indent, row);
  }

  #sequence(indent: number, path: string, depth: number): YamlValue[] {
    if (depth > maxDepth) this.#fail(`values are nested more than ${maxDepth} levels deep`, this.#index);
    const items: YamlValue[] = [];
    for (let row = this.#nextContent(); row !== undefined; row = this.#nextContent()) {
      const rowIndent = this.#indent(row);
      const text = (this.rows[row] as string).slice(rowIndent);
      if (rowIndent < indent || !(text === '-' || text.startsWith('- '))) {
        if (rowIndent > indent) this.#fail('this line is indented more than the list items above it', row);
        break;
      }
      if (rowIndent > indent) this.#fail('this list item is indented more than the one above it', row);
      const item = text.slice(1).trim();
      if (item === '' || item.startsWith('#'))
        this.#fail('an empty or nested list item is not supported in SKILL.md frontmatter', row);
      if (item === '-' || item.startsWith('- '))
        this.#fail('lists inside lists are not supported in SKILL.md frontmatter', row);
      if (!/^["'[]/.test(item) && /:( |$)/.test(item))
        this.#fail(
          'mappings inside lists are not supported in SKILL.md frontmatter; quote the item if it is text',
          row,
        );
      this.#index = row + 1;
      items.push(this.#value(item, indent, row, `${path}[${items.length}]`, depth));
    }
    return items;
  }

  #plainScalar(rest: string, indent: number, row: number): string {
    const checkLine = (line: string, at: number): string => {
      const comment = line.search(/(^| )#/);
      const content = (comment === -1 ? line : line.slice(0, comment)).trim();
      if (/: |:$/.test(content))
        this.#fail('a value holding ": " must be put in quotes (YAML would read a nested key)', at);
      return content;
    };
    let value = checkLine(rest, row);
    if (rest.search(/(^| )#/) !== -1) return value;
    let blank = 0;
    while (this.#index < this.rows.length) {
      const line = this.rows[this.#index] as string;
      if (line.trim() === '') {
        blank++;
        this.#index++;
        continue;
      }
      if (this.#indent(this.#index) <= indent || line.trim().startsWith('#')) break;
      const content = checkLine(line, this.#index);
      value += blank > 0 ? '\n'.repeat(blank) + content : ` ${content}`;
      blank = 0;
      const ended = line.search(/(^| )#/) !== -1;
      this.#index++;
      if (ended) break;
    }
    return value;
  }

  /** A quoted value, over as many lines as it takes; after its closing quote only a comment may follow. */
  #quotedValue(rest: string, row: number): string {
    let raw = rest;
    let end = quotedEnd(raw, 0);
    while (end === -1) {
      if (this.#index >= this.rows.length) this.#fail('a quoted value is never closed', row);
      raw += `\n${this.rows[this.#index] as string}`;
      this.#index++;
      end = quotedEnd(raw, 0);
    }
    const after = raw.slice(end + 1).trim();
    if (after !== '' && !after.startsWith('#'))
      this.#fail('only a comment may follow a quoted value on its line', Math.max(this.#index - 1, row));
    return unquote(raw.slice(0, end + 1), (message, offset) => this.#fail(message, row + offset));
  }

  #flowSequence(rest: string, row: number): string[] {
    let raw = rest;
    const items: string[] = [];
    let at = 1;
    let current = '';
    let quotedItem = false;
    for (;;) {
      if (at >= raw.length) {
        if (this.#index >= this.rows.length) this.#fail('a [ ... ] list is never closed', row);
        raw += ` ${(this.rows[this.#index] as string).trim()}`;
        this.#index++;
        continue;
      }
      const char = raw[at] as string;
      if (char === '"' || char === "'") {
        let end = quotedEnd(raw, at);
        while (end === -1) {
          if (this.#index >= this.rows.length) this.#fail('a quoted item is never closed', row);
          raw += `\n${this.rows[this.#index] as string}`;
          this.#index++;
          end = quotedEnd(raw, at);
        }
        if (current.trim() !== '') this.#fail('a quote stands inside an unquoted list item', row);
        current = unquote(raw.slice(at, end + 1), (message) => this.#fail(message, row));
        quotedItem = true;
        at = end + 1;
        continue;
      }
      if (char === ',' || char === ']') {
        const item = quotedItem ? current : current.trim();
        if (item !== '' || quotedItem) items.push(item);
        else if (char === ',') this.#fail('a [ ... ] list has an empty item', row);
        current = '';
        quotedItem = false;
        at++;
        if (char === ']') break;
        continue;
      }
      if (char === '[' || char === '{')
        this.#fail('lists and mappings inside [ ... ] are not supported in SKILL.md frontmatter', row);
      if (quotedItem && char.trim() !== '')
        this.#fail('text follows a quoted list item before its comma', row);
      if (!quotedItem) {
        if (current.trim() === '' && char.trim() !== '' && Object.hasOwn(refusedStart, char))
          this.#fail(refusedStart[char] as string, row);
        if (char === ':' && (raw[at + 1] === ' ' || raw[at + 1] === ',' || raw[at + 1] === ']'))
          this.#fail('mappings inside [ ... ] are not supported; quote the item if it is text', row);
        if (char === '#' && (current === '' || current.endsWith(' ')))
          this.#fail('a comment inside [ ... ]', row);
        current += char;
      }
      at++;
    }
    const after = raw.slice(at).trim();
    if (after !== '' && !after.startsWith('#'))
      this.#fail('only a comment may follow a [ ... ] list on its line', row);
    return items;
  }

  #blockScalar(header: string, indent: number, row: number): string {
    const match = /^([|>])([+-]?)([1-9]?)([+-]?)(\s+#.*)?\s*$/.exec(header);
    if (match === null || (match[2] !== '' && match[4] !== ''))
      this.#fail(
        `'${header}' is not a block scalar header ('|' or '>', then optionally '-', '+' or an indentation digit)`,
        row,
      );
    const folded = match[1] === '>';
    const chomping = match[2] || match[4] || '';
    const lines: string[] = [];
    let blockIndent = match[3] === '' ? undefined : indent + Number(match[3]);
    while (this.#index < this.rows.length) {
      const line = this.rows[this.#index] as string;
      if (line.trim() === '') {
        lines.push(blockIndent === undefined ? '' : line.slice(blockIndent));
        this.#index++;
        continue;
      }
      let lineIndent = 0;
      while (line[lineIndent] === ' ') lineIndent++;
      if (blockIndent === undefined) {
        if (lineIndent <= indent) break;
        blockIndent = lineIndent;
      }
      if (lineIndent < blockIndent) break;
      lines.push(line.slice(blockIndent));
      this.#index++;
    }
    return foldBlockLines(lines, folded, chomping);
  }
}
