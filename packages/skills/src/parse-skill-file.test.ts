import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSkillFile } from './parse-skill-file.js';
import { sharedSkillsFolder } from './test-support/fixture-folders.js';

const shared = sharedSkillsFolder();

describe('parseSkillFile', () => {
  it('reads every field of a valid SKILL.md', () => {
    const text =
      '---\nname: pdf\ndescription: >\n  Fills PDF forms.\n  Use with PDFs.\nlicense: Apache-2.0\ncompatibility: Requires pdftk\nmetadata:\n  version: 2.1\nallowed-tools: shell read_file\n---\n\n# PDF\n\nSteps.\n';
    const { content, problems } = parseSkillFile(text, { file: 'pdf/SKILL.md', folderName: 'pdf' });
    expect(problems).toEqual([]);
    expect(content).toEqual({
      name: 'pdf',
      description: 'Fills PDF forms. Use with PDFs.',
      license: 'Apache-2.0',
      compatibility: 'Requires pdftk',
      metadata: { version: '2.1' },
      allowedTools: ['shell', 'read_file'],
      body: '# PDF\n\nSteps.',
    });
  });

  it.each([
    ['---\nname: x\ndescription: d\nlicense: [a]\n---\n', 4, "has a 'license' that is a list, not text"],
    [
      '---\nname: x\ndescription: d\ncompatibility: ' + 'c'.repeat(501) + '\n---\n',
      4,
      'has a compatibility of 501 characters; the limit is 500',
    ],
    [
      '---\nname: x\ndescription: d\nmetadata: text\n---\n',
      4,
      "has 'metadata' that is text; it must be a mapping of keys to text",
    ],
    [
      '---\nname: x\ndescription: d\nmetadata:\n  list:\n    - a\n---\n',
      5,
      "has metadata 'list' that is a list; metadata values must be text",
    ],
    [
      '---\nname: x\ndescription: d\nallowed-tools:\n  nested: map\n---\n',
      4,
      "has 'allowed-tools' that is a mapping; give a space-separated string or a list of strings",
    ],
    ['---\nname:\ndescription: d\n---\n', 2, "has an empty 'name'"],
    [
      '---\nname: x\ndescription: ""\n---\n',
      3,
      "has an empty 'description': say what the skill does and when to use it",
    ],
    [
      '---\nname: x--y\ndescription: d\n---\n',
      2,
      "has an invalid name: the name 'x--y' may not hold two hyphens in a row",
    ],
  ])('reports %j at line %i', (text, line, message) => {
    const { content, problems } = parseSkillFile(text, { file: 'SKILL.md' });
    expect(content).toBeUndefined();
    expect(problems).toContainEqual({ file: 'SKILL.md', line, severity: 'error', message });
  });

  it('warns about an empty body and a body over 500 lines, and keeps the skill', () => {
    const empty = parseSkillFile('---\nname: x\ndescription: d\n---\n', { file: 'SKILL.md' });
    expect(empty.content?.name).toBe('x');
    expect(empty.problems).toEqual([
      {
        file: 'SKILL.md',
        line: 5,
        severity: 'warning',
        message: 'has no instructions after its frontmatter',
      },
    ]);
    const long = parseSkillFile(`---\nname: x\ndescription: d\n---\n${'line\n'.repeat(501)}`, {
      file: 'SKILL.md',
    });
    expect(long.content?.name).toBe('x');
    expect(long.problems[0]?.message).toMatch(
      /has 501 lines of instructions; the standard recommends under 500/,
    );
  });

  it.skipIf(shared === undefined)(
    'reads the real skills of a public skills repository (../shared/fixtures/skills)',
    async () => {
      const folder = shared as string;
      const names = (await readdir(folder, { withFileTypes: true }))
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name);
      expect(names.length).toBeGreaterThanOrEqual(3);
      for (const name of names) {
        const file = join(folder, name, 'SKILL.md');
        const { content, problems } = parseSkillFile(await readFile(file), { file, folderName: name });
        expect(problems).toEqual([]);
        expect(content?.name).toBe(name);
        expect(content?.license).toBe('Complete terms in LICENSE.txt');
        expect(content?.body.length).toBeGreaterThan(200);
      }
    },
  );
  if (shared === undefined)
    console.info(
      'skipped the real skills: ../shared/fixtures/skills is not beside the repository (CI has it)',
    );
});
