/** Options for `compileGlob`. */
export interface GlobOptions {
  /** Expand `{a,b}` alternatives (the glob tool does; gitignore files do not). */
  braces?: boolean;
}

// Enough for any sensible pattern; stops `{a,b}{c,d}...` from growing without bound.
const maxBraceExpansions = 1024;
const globCharacters = /[*?[\]{}\\]/;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < body.length; index++) {
    const character = body[index];
    if (character === '\\') index++;
    else if (character === '{') depth++;
    else if (character === '}') depth--;
    else if (character === ',' && depth === 0) {
      parts.push(body.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/**
 * Expands `{a,b}` alternatives, nested ones included, into plain patterns:
 * `src/{a,b/{c,d}}.ts` gives `src/a.ts`, `src/b/c.ts`, `src/b/d.ts`. Braces
 * without a comma stay literal. Throws past 1024 expansions.
 */
export function expandBraces(pattern: string): string[] {
  let depth = 0;
  let open = -1;
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\') {
      index++;
      continue;
    }
    if (character === '{') {
      if (depth === 0) open = index;
      depth++;
    } else if (character === '}' && depth > 0) {
      depth--;
      if (depth > 0) continue;
      const alternatives = splitAlternatives(pattern.slice(open + 1, index));
      if (alternatives.length < 2) continue;
      const prefix = pattern.slice(0, open);
      const suffix = pattern.slice(index + 1);
      const expanded: string[] = [];
      for (const alternative of alternatives) {
        for (const result of expandBraces(prefix + alternative + suffix)) {
          expanded.push(result);
          if (expanded.length > maxBraceExpansions) {
            throw new Error(
              `The pattern '${pattern}' expands to more than ${maxBraceExpansions} alternatives.`,
            );
          }
        }
      }
      return expanded;
    }
  }
  return [pattern];
}

function classEnd(segment: string, start: number): number {
  let index = start + 1;
  if (segment[index] === '!' || segment[index] === '^') index++;
  if (segment[index] === ']') index++;
  for (; index < segment.length; index++) {
    if (segment[index] === '\\') index++;
    else if (segment[index] === ']') return index;
  }
  return -1;
}

function translateClass(body: string): string {
  const negated = body.startsWith('!') || body.startsWith('^');
  let inner = '';
  for (let index = negated ? 1 : 0; index < body.length; index++) {
    let character = body[index] as string;
    if (character === '\\' && index + 1 < body.length) character = body[++index] as string;
    else if (character === '-' && index > (negated ? 1 : 0) && index < body.length - 1) {
      inner += '-';
      continue;
    }
    inner += /[\]\\^[-]/.test(character) ? `\\${character}` : character;
  }
  // A class never matches the separator, as in every shell.
  return negated ? `[^/${inner}]` : `(?!/)[${inner}]`;
}

function translateSegment(segment: string): string {
  let source = '';
  for (let index = 0; index < segment.length; index++) {
    const character = segment[index] as string;
    if (character === '\\') {
      const next = segment[index + 1];
      source += escapeRegExp(next ?? '\\');
      index++;
    } else if (character === '*') {
      while (segment[index + 1] === '*') index++;
      source += '[^/]*';
    } else if (character === '?') {
      source += '[^/]';
    } else if (character === '[') {
      const end = classEnd(segment, index);
      if (end === -1) source += '\\[';
      else {
        source += translateClass(segment.slice(index + 1, end));
        index = end;
      }
    } else {
      source += escapeRegExp(character);
    }
  }
  return source;
}

function compileOne(pattern: string): string {
  const segments = pattern
    .replace(/^(\.\/)+/, '')
    .split('/')
    .filter((segment, index, all) => segment !== '' && !(segment === '**' && all[index - 1] === '**'));
  let source = '';
  segments.forEach((segment, index) => {
    const first = index === 0;
    const last = index === segments.length - 1;
    if (segment === '**') {
      if (first && last) source += '.*';
      else if (first) source += '(?:.*/)?';
      else if (last) source += '/.+';
      else source += '/(?:.*/)?';
      return;
    }
    if (!first && segments[index - 1] !== '**') source += '/';
    source += translateSegment(segment);
  });
  return source;
}

/**
 * Compiles a glob into an anchored regular expression over `/`-separated
 * relative paths. `*` and `?` stay within one path segment, `**` as a whole
 * segment spans any number of directories (none included), `[a-z]` / `[!a-z]`
 * are character classes, `\` escapes, and `{a,b}` alternates when `braces` is on.
 */
export function compileGlob(pattern: string, options: GlobOptions = {}): RegExp {
  const patterns = options.braces === true ? expandBraces(pattern) : [pattern];
  return new RegExp(`^(?:${patterns.map(compileOne).join('|')})$`);
}

/** True when the text holds glob syntax; false for a literal path. */
export function hasGlobSyntax(text: string): boolean {
  return globCharacters.test(text);
}

/**
 * Splits a pattern into its literal leading directories and the rest, so a
 * search can start at `src/lib` for `src/lib/**\/*.ts`. The last segment is
 * always part of the rest.
 */
export function splitGlobBase(pattern: string): { base: string; rest: string } {
  const segments = pattern.replace(/^(\.\/)+/, '').split('/');
  let count = 0;
  while (count < segments.length - 1 && !hasGlobSyntax(segments[count] as string)) count++;
  return { base: segments.slice(0, count).join('/') || '.', rest: segments.slice(count).join('/') };
}
