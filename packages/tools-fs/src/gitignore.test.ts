import { describe, expect, test } from 'vitest';
import { IgnoreRules, parseGitignore } from './gitignore.js';

function ignores(text: string, path: string, isDirectory = false): boolean {
  return new IgnoreRules().withLevel('', parseGitignore(text)).isIgnored(path, isDirectory);
}

describe('parseGitignore and IgnoreRules', () => {
  test('a name without a slash matches at any depth', () => {
    expect(ignores('*.log', 'debug.log')).toBe(true);
    expect(ignores('*.log', 'a/b/debug.log')).toBe(true);
    expect(ignores('*.log', 'debug.txt')).toBe(false);
    expect(ignores('build', 'src/build', true)).toBe(true);
  });

  test('comments, blank lines and trailing spaces', () => {
    const text = '# a comment\n\n*.tmp   \n\\#hash\n';
    expect(ignores(text, 'x.tmp')).toBe(true);
    expect(ignores(text, '#hash')).toBe(true);
    expect(ignores(text, '# a comment')).toBe(false);
  });

  test('negation re-includes, and the last matching rule wins', () => {
    const text = '*.log\n!keep.log\n';
    expect(ignores(text, 'drop.log')).toBe(true);
    expect(ignores(text, 'keep.log')).toBe(false);
    expect(ignores('!keep.log\n*.log\n', 'keep.log')).toBe(true);
  });

  test('a trailing slash matches directories only', () => {
    expect(ignores('out/', 'out', true)).toBe(true);
    expect(ignores('out/', 'out', false)).toBe(false);
  });

  test('a leading or middle slash anchors the pattern to the ignore file', () => {
    expect(ignores('/todo.txt', 'todo.txt')).toBe(true);
    expect(ignores('/todo.txt', 'docs/todo.txt')).toBe(false);
    expect(ignores('docs/*.md', 'docs/a.md')).toBe(true);
    expect(ignores('docs/*.md', 'x/docs/a.md')).toBe(false);
    expect(ignores('docs/*.md', 'docs/deep/a.md')).toBe(false);
  });

  test('** as leading, middle and trailing segment', () => {
    expect(ignores('**/cache', 'a/b/cache', true)).toBe(true);
    expect(ignores('a/**/z.txt', 'a/z.txt')).toBe(true);
    expect(ignores('a/**/z.txt', 'a/b/c/z.txt')).toBe(true);
    expect(ignores('a/**', 'a/b/c')).toBe(true);
    expect(ignores('a/**', 'a', true)).toBe(false);
  });

  test('character classes and ?', () => {
    expect(ignores('file[0-9].txt', 'file7.txt')).toBe(true);
    expect(ignores('file[!0-9].txt', 'file7.txt')).toBe(false);
    expect(ignores('file[!0-9].txt', 'fileA.txt')).toBe(true);
    expect(ignores('?.c', 'a.c')).toBe(true);
    expect(ignores('?.c', 'ab.c')).toBe(false);
  });

  test('a deeper ignore file overrides a shallower one, and applies only below itself', () => {
    const rules = new IgnoreRules()
      .withLevel('', parseGitignore('*.gen\n'))
      .withLevel('pkg', parseGitignore('!keep.gen\nlocal.txt\n'));
    expect(rules.isIgnored('pkg/keep.gen', false)).toBe(false);
    expect(rules.isIgnored('pkg/other.gen', false)).toBe(true);
    expect(rules.isIgnored('keep.gen', false)).toBe(true);
    expect(rules.isIgnored('pkg/local.txt', false)).toBe(true);
    expect(rules.isIgnored('local.txt', false)).toBe(false);
  });

  test('.git and node_modules are always ignored', () => {
    expect(ignores('', '.git', true)).toBe(true);
    expect(ignores('', 'a/node_modules', true)).toBe(true);
    expect(ignores('!node_modules', 'node_modules', true)).toBe(true);
  });
});
