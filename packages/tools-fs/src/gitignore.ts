import { compileGlob } from './glob-pattern.js';

/** One rule of a `.gitignore` file, compiled. */
export interface GitignoreRule {
  /** The line as written. */
  source: string;
  /** Matches paths relative to the directory of the `.gitignore` file. */
  matcher: RegExp;
  /** `!pattern`: re-includes what an earlier rule excluded. */
  negate: boolean;
  /** `pattern/`: matches directories only. */
  directoryOnly: boolean;
}

/** Names skipped at every depth whatever the ignore files say. */
export const alwaysIgnoredNames: ReadonlySet<string> = new Set(['.git', 'node_modules']);

function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === ' ' && line[end - 2] !== '\\') end--;
  return line.slice(0, end);
}

/**
 * Parses `.gitignore` text: blank lines and `#` comments are skipped, `!`
 * negates, a trailing `/` matches directories only, a `/` at the start or in
 * the middle anchors the pattern to the file's directory (otherwise it matches
 * at any depth), and `*`, `?`, `[...]`, `**` work as in git.
 */
export function parseGitignore(text: string): GitignoreRule[] {
  const rules: GitignoreRule[] = [];
  for (const rawLine of text.split('\n')) {
    let line = trimTrailingSpaces(rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine);
    if (line === '' || line.startsWith('#')) continue;
    const negate = line.startsWith('!');
    if (negate) line = line.slice(1);
    else if (line.startsWith('\\!') || line.startsWith('\\#')) line = line.slice(1);
    const directoryOnly = line.endsWith('/');
    if (directoryOnly) line = line.replace(/\/+$/, '');
    if (line === '') continue;
    const anchored = line.includes('/');
    const pattern = anchored ? line.replace(/^\/+/, '') : `**/${line}`;
    rules.push({ source: rawLine, matcher: compileGlob(pattern), negate, directoryOnly });
  }
  return rules;
}

interface IgnoreLevel {
  /** The directory of the ignore file, relative to the root (`''` for the root). */
  base: string;
  rules: readonly GitignoreRule[];
}

/**
 * The ignore rules in force in one directory: the `.gitignore` files from the
 * root down to it, deeper files taking precedence, plus `.git` and
 * `node_modules` always. Immutable: `withLevel` returns a new set.
 */
export class IgnoreRules {
  readonly #levels: readonly IgnoreLevel[];

  constructor(levels: readonly IgnoreLevel[] = []) {
    this.#levels = levels;
  }

  /** These rules plus those of an ignore file in `base` (relative to the root). */
  withLevel(base: string, rules: readonly GitignoreRule[]): IgnoreRules {
    return rules.length === 0 ? this : new IgnoreRules([...this.#levels, { base, rules }]);
  }

  /**
   * Whether a path (relative to the root, `/`-separated) is ignored. Parents
   * are not checked: a walk never enters an ignored directory, which gives
   * git's rule that nothing inside an excluded directory can be re-included.
   */
  isIgnored(path: string, isDirectory: boolean): boolean {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (alwaysIgnoredNames.has(name)) return true;
    for (let levelIndex = this.#levels.length - 1; levelIndex >= 0; levelIndex--) {
      const { base, rules } = this.#levels[levelIndex] as IgnoreLevel;
      let relativePath: string;
      if (base === '') relativePath = path;
      else if (path.startsWith(`${base}/`)) relativePath = path.slice(base.length + 1);
      else continue;
      // Within one file the last matching rule wins; a deeper file beats a shallower one.
      for (let ruleIndex = rules.length - 1; ruleIndex >= 0; ruleIndex--) {
        const rule = rules[ruleIndex] as GitignoreRule;
        if (rule.directoryOnly && !isDirectory) continue;
        if (rule.matcher.test(relativePath)) return !rule.negate;
      }
    }
    return false;
  }
}
