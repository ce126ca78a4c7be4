import { describe, expect, it } from 'vitest';
import { normalizeSkillPath, skillNameProblem } from '../index.js';

describe('skill names (the Agent Skills rule)', () => {
  it.each(['pdf', 'pdf-processing', 'a', 'x2', 'données', '数据', 'a'.repeat(64)])('accepts %j', (name) => {
    expect(skillNameProblem(name)).toBeUndefined();
  });

  it.each([
    ['', /non-empty string/],
    [42, /non-empty string/],
    ['PDF-Processing', /must be lowercase \('pdf-processing'\)/],
    ['-pdf', /may not start or end with a hyphen/],
    ['pdf-', /may not start or end with a hyphen/],
    ['pdf--processing', /two hyphens in a row/],
    ['pdf_processing', /only lowercase letters, digits and hyphens/],
    ['pdf processing', /only lowercase letters, digits and hyphens/],
    ['../etc', /only lowercase letters, digits and hyphens/],
    ['a'.repeat(65), /65 characters long; use at most 64/],
  ])('refuses %j', (name, problem) => {
    expect(skillNameProblem(name)).toMatch(problem);
  });
});

describe('paths inside a skill', () => {
  it.each([
    ['references/guide.md', 'references/guide.md'],
    ['./references//guide.md', 'references/guide.md'],
    ['references/../assets/logo.svg', 'assets/logo.svg'],
    ['references\\guide.md', 'references/guide.md'],
  ])('%j is %j', (path, normal) => {
    expect(normalizeSkillPath('pdf', path)).toBe(normal);
  });

  it.each(['..', '../x', 'a/../../x', '/etc/passwd', '\\\\host\\share', 'C:/x', '.', '', 'a\0b'])(
    'refuses %j with a SkillError',
    (path) => {
      expect(() => normalizeSkillPath('pdf', path)).toThrow(
        expect.objectContaining({ name: 'SkillError', code: 'outside_skill', skill: 'pdf' }),
      );
    },
  );
});
