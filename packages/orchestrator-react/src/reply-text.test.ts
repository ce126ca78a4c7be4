import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { cleanToolName, unfenced } from './reply-text.js';

// The soak run's many cases take minutes, not the default run's seconds.
if (process.env.AGENT_CORE_SOAK === '1') vi.setConfig({ testTimeout: 60 * 60_000 });

// The scans replaced regular expressions that backtracked over long runs of one character. On
// short texts the expressions are quick, so they serve as the reference: for any short text made
// of the characters that matter, the scans answer exactly as the expressions did.

function unfencedByPattern(text: string): string {
  const fenced = /^`{3,}[\w-]*[ \t]*\n?([\s\S]*?)\n?[ \t]*`{3,}/.exec(text);
  if (fenced !== null) return (fenced[1] as string).trim();
  if (/^`[^`]*`$/.test(text)) return text.slice(1, -1).trim();
  return text;
}

function cleanToolNameByPattern(text: string): string {
  if (/^[\w-]+$/.test(text)) return text;
  const newline = text.indexOf('\n');
  const firstLine = newline < 0 ? text : text.slice(0, newline);
  return firstLine
    .trim()
    .replace(/^[`'"*[]+|[`'"*\]]+$/g, '')
    .replace(/\(\s*\)$/, '')
    .replace(/[.:]+$/, '')
    .trim();
}

const runs = process.env.AGENT_CORE_SOAK === '1' ? 50_000 : 2_000;
const seed = Number(process.env.AGENT_CORE_SEED);
const settings = { numRuns: runs, ...(Number.isInteger(seed) ? { seed } : {}) };

function textOf(characters: string[]): fc.Arbitrary<string> {
  return fc.array(fc.constantFrom(...characters), { maxLength: 24 }).map((parts) => parts.join(''));
}

describe('reply text scans answer as the patterns they replace', () => {
  it('unfenced', () => {
    const text = textOf(['`', '`', '`', ' ', '\t', '\n', 'j', 's', '-', '_', '{', '}', '"', 'x', '\u00a0']);
    fc.assert(
      fc.property(text, (value) => {
        expect(unfenced(value)).toBe(unfencedByPattern(value));
      }),
      settings,
    );
  });

  it('cleanToolName', () => {
    const text = textOf([
      '`',
      "'",
      '"',
      '*',
      '[',
      ']',
      '(',
      ')',
      ' ',
      '\t',
      '\n',
      '.',
      ':',
      'a',
      '_',
      '-',
      '\u2003',
    ]);
    fc.assert(
      fc.property(text, (value) => {
        expect(cleanToolName(value)).toBe(cleanToolNameByPattern(value));
      }),
      settings,
    );
  });
});
