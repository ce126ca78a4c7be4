import { describe, expect, it } from 'vitest';
import { type LineStart, classifyLine, classifyRange, isWhitespace } from './react-line.js';

// The classification as first written: lower-case the line and compare with regular expressions.
// The classifier reads character codes in place instead; the two must agree on every line.
const keywords = ['thought', 'action input', 'action', 'observation', 'final answer'] as const;
function reference(line: string, complete: boolean): LineStart {
  let start = 0;
  while (start < line.length && /[\s*_#>]/.test(line[start] as string)) start++;
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
    if (position === rest.length && !complete) {
      undecided = true;
      continue;
    }
    return { kind: 'keyword', keyword, contentStart: start + position };
  }
  return undecided ? { kind: 'undecided' } : { kind: 'content' };
}

/** A small seeded generator, so a failure names a line that can be replayed. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const pieces = [
  'Thought',
  'THOUGHT',
  'Action',
  'action Input',
  'Action Input',
  'Observation',
  'Final Answer',
  'final  answer',
  'Fin',
  'Act',
  ':',
  ' ',
  '\t',
  '**',
  '_',
  '#',
  '> ',
  '\u00a0',
  '\u3000',
  'x',
  '45',
  '{"a": 1}',
  'İ',
];

function randomLine(random: () => number): string {
  let line = '';
  const count = 1 + Math.floor(random() * 6);
  for (let index = 0; index < count; index++) line += pieces[Math.floor(random() * pieces.length)];
  return line;
}

describe('classifyLine', () => {
  it('agrees with the regular-expression reading on every prefix of generated lines', () => {
    const random = generator(7);
    for (let sample = 0; sample < 3_000; sample++) {
      const line = randomLine(random);
      for (let cut = 0; cut <= line.length; cut++) {
        const prefix = line.slice(0, cut);
        for (const complete of [false, true]) {
          expect(classifyLine(prefix, complete), `${JSON.stringify(prefix)} complete ${complete}`).toEqual(
            reference(prefix, complete),
          );
        }
      }
    }
  });

  it('reads a line inside a longer text in place, with the content start as an index into the text', () => {
    const text = 'Thought: a\n  **Final Answer:** 45\nrest';
    const from = text.indexOf('  **');
    const to = text.indexOf('\nrest');
    expect(classifyRange(text, from, to, true)).toEqual({
      kind: 'keyword',
      keyword: 'final answer',
      contentStart: text.indexOf('45'),
    });
  });

  it('counts as whitespace exactly what trim removes', () => {
    for (let code = 0; code <= 0xffff; code++) {
      const character = String.fromCharCode(code);
      expect(isWhitespace(code), `U+${code.toString(16)}`).toBe(character.trim() === '');
    }
  });
});
