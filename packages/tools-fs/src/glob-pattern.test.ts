import { describe, expect, test } from 'vitest';
import { compileGlob, expandBraces, splitGlobBase } from './glob-pattern.js';

function matches(pattern: string, path: string): boolean {
  return compileGlob(pattern, { braces: true }).test(path);
}

describe('compileGlob', () => {
  test('* and ? stay within one segment', () => {
    expect(matches('*.ts', 'a.ts')).toBe(true);
    expect(matches('*.ts', 'src/a.ts')).toBe(false);
    expect(matches('src/?.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/?.ts', 'src/ab.ts')).toBe(false);
  });

  test('** spans any number of directories, none included', () => {
    expect(matches('**/*.ts', 'a.ts')).toBe(true);
    expect(matches('**/*.ts', 'a/b/c.ts')).toBe(true);
    expect(matches('src/**/index.ts', 'src/index.ts')).toBe(true);
    expect(matches('src/**/index.ts', 'src/a/b/index.ts')).toBe(true);
    expect(matches('src/**/index.ts', 'lib/index.ts')).toBe(false);
    expect(matches('**', 'any/thing/at/all')).toBe(true);
    expect(matches('src/**', 'src/a/b')).toBe(true);
  });

  test('braces, nested too', () => {
    expect(matches('*.{js,ts}', 'a.ts')).toBe(true);
    expect(matches('*.{js,ts}', 'a.md')).toBe(false);
    expect(matches('{src,lib/{a,b}}/*.ts', 'lib/b/x.ts')).toBe(true);
    expect(matches('{x}.ts', '{x}.ts')).toBe(true);
    expect(expandBraces('a{1,2}b{3,4}')).toEqual(['a1b3', 'a1b4', 'a2b3', 'a2b4']);
    expect(() => expandBraces('{a,b}'.repeat(11))).toThrow(/more than 1024 alternatives/);
  });

  test('character classes, negated classes and escapes', () => {
    expect(matches('[a-c]*.md', 'b.md')).toBe(true);
    expect(matches('[a-c]*.md', 'd.md')).toBe(false);
    expect(matches('[!a-c]*.md', 'd.md')).toBe(true);
    expect(matches('[^a-c]*.md', 'a.md')).toBe(false);
    expect(matches('\\*.md', '*.md')).toBe(true);
    expect(matches('\\*.md', 'a.md')).toBe(false);
    expect(matches('a[.md', 'a[.md')).toBe(true);
  });

  test('regular expression characters are literal', () => {
    expect(matches('a+(b).txt', 'a+(b).txt')).toBe(true);
    expect(matches('a.txt', 'abtxt')).toBe(false);
  });

  test('splitGlobBase takes the literal leading directories', () => {
    expect(splitGlobBase('src/lib/**/*.ts')).toEqual({ base: 'src/lib', rest: '**/*.ts' });
    expect(splitGlobBase('*.ts')).toEqual({ base: '.', rest: '*.ts' });
    expect(splitGlobBase('./src/index.ts')).toEqual({ base: 'src', rest: 'index.ts' });
    expect(splitGlobBase('{a,b}/x')).toEqual({ base: '.', rest: '{a,b}/x' });
  });
});
