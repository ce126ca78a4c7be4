import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { skillFolderFiles } from './skill-folder-files.js';
import { copyFixtures, temporaryFolder } from './test-support/fixture-folders.js';

async function skillFolder() {
  const root = await copyFixtures('project');
  const folder = join(root, 'project/.agents/skills/release-notes');
  await writeFile(join(root, 'secret.txt'), 'outside the skill');
  await mkdir(join(root, 'elsewhere'));
  await writeFile(join(root, 'elsewhere', 'notes.md'), 'outside too');
  await symlink(join(root, 'secret.txt'), join(folder, 'references', 'leak.md'));
  await symlink(join(root, 'elsewhere'), join(folder, 'linked-out'));
  await symlink(join(folder, 'references', 'format.md'), join(folder, 'inside-link.md'));
  await writeFile(join(folder, 'assets', 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]));
  await writeFile(join(folder, 'assets', 'big.txt'), 'x'.repeat(2048));
  await writeFile(join(folder, '.hidden'), 'not listed');
  return { root, folder, files: skillFolderFiles('release-notes', folder, { maxFileBytes: 1024 }) };
}

describe('skillFolderFiles', () => {
  it('lists the files of the skill, not SKILL.md, hidden files or links that lead out', async () => {
    const { files } = await skillFolder();
    expect(await files.list()).toEqual([
      'assets/big.txt',
      'assets/logo.png',
      'assets/template.md',
      'inside-link.md',
      'references/format.md',
      'scripts/collect.sh',
    ]);
  });

  it('reads a text file, also through a link that stays inside', async () => {
    const { files } = await skillFolder();
    expect(await files.read('references/format.md')).toMatch(/^# Format\n/);
    expect(await files.read('./inside-link.md')).toMatch(/^# Format\n/);
  });

  it.each([
    ['../../../secret.txt', 'outside_skill', /leaves the folder of skill 'release-notes'/],
    ['/etc/passwd', 'outside_skill', /is absolute/],
    ['references/leak.md', 'outside_skill', /leads through a symbolic link outside the skill's folder/],
    ['linked-out/notes.md', 'outside_skill', /leads through a symbolic link outside/],
    ['references/missing.md', 'file_not_found', /has no file 'references\/missing.md'/],
    ['references', 'not_a_file', /is a folder/],
    [
      'assets/logo.png',
      'binary_file',
      /is a binary file \(8 bytes\), not text; use it by its path: \/.*\/assets\/logo.png/,
    ],
    ['assets/big.txt', 'file_too_large', /is 2048 bytes, over the 1024 bytes a read returns/],
  ])('refuses %j (%s)', async (path, code, message) => {
    const { files } = await skillFolder();
    await expect(files.read(path)).rejects.toMatchObject({
      name: 'SkillError',
      code,
      message: expect.stringMatching(message),
    });
  });

  it('refuses a link loop inside the folder', async () => {
    const folder = await temporaryFolder();
    await symlink(join(folder, 'b'), join(folder, 'a'));
    await symlink(join(folder, 'a'), join(folder, 'b'));
    await expect(skillFolderFiles('loop', folder).read('a')).rejects.toMatchObject({
      code: 'outside_skill',
      message: expect.stringMatching(/loop/),
    });
  });
});
