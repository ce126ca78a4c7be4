import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSkills } from './discover-skills.js';
import { formatSkillProblem } from './skill-problem.js';
import { skillFolders, userSkillsFolder } from './skill-folders.js';
import { copyFixtures, temporaryFolder } from './test-support/fixture-folders.js';

async function writeSkill(folder: string, name: string, extra = ''): Promise<void> {
  await mkdir(join(folder, name), { recursive: true });
  await writeFile(
    join(folder, name, 'SKILL.md'),
    `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\nDo ${name}.\n`,
  );
}

describe('discoverSkills', () => {
  it('finds project and user skills: the project shadows the user, .agents/skills shadows .claude/skills', async () => {
    const root = await copyFixtures('project', 'user');
    const found = await discoverSkills({ project: join(root, 'project'), user: join(root, 'user') });
    expect(found.skills.map((skill) => [skill.name, skill.source])).toEqual([
      ['commit-message', 'project'],
      ['release-notes', 'project'],
      ['translate', 'user'],
    ]);
    const notes = found.skills.find((skill) => skill.name === 'release-notes');
    expect(notes?.location).toBe(join(root, 'project/.agents/skills/release-notes/SKILL.md'));
    expect(notes?.description).toBe(
      'Writes release notes from merged changes. Use when the user asks for release notes, a changelog entry or a summary of what shipped.',
    );
    expect(notes).toMatchObject({
      license: 'MIT',
      compatibility: 'Needs git on the PATH',
      metadata: { author: 'agent-core tests', version: '1.0' },
      allowedTools: ['shell', 'Bash(git log:*)'],
    });
    expect(await notes?.body()).toMatch(/^# Release notes\n\n1\. Collect the merged changes/);
    expect(found.shadowed.map(({ skill, by }) => [skill.location, by.location])).toEqual([
      [
        join(root, 'project/.claude/skills/release-notes/SKILL.md'),
        join(root, 'project/.agents/skills/release-notes/SKILL.md'),
      ],
      [
        join(root, 'user/commit-message/SKILL.md'),
        join(root, 'project/.claude/skills/commit-message/SKILL.md'),
      ],
    ]);
    expect(found.problems.map(formatSkillProblem)).toEqual([
      `${join(root, 'user/translate/SKILL.md')}:6: warning: has the field 'unknown-field', which the Agent Skills standard does not define (it is ignored; put your own values under 'metadata')`,
    ]);
  });

  it('reports each broken skill with its file, line and what is wrong, leaves it out, and keeps the rest', async () => {
    const root = await copyFixtures('broken', 'user');
    const found = await discoverSkills({ folders: [join(root, 'broken'), join(root, 'user')], user: false });
    expect(found.skills.map((skill) => skill.name)).toEqual(['commit-message', 'translate']);
    const lines = found.problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => formatSkillProblem(problem).replace(`${root}/broken/`, ''));
    expect(lines).toEqual([
      "Bad-Name/SKILL.md:2: has an invalid name: the name 'Bad-Name' must be lowercase ('bad-name')",
      'alias-bomb/SKILL.md:3: has frontmatter that is not valid YAML here: anchors (&name) are not supported in SKILL.md frontmatter; write the value out',
      'long-description/SKILL.md:3: has a description of 1025 characters; the limit is 1024',
      "missing-description/SKILL.md:1: has no 'description' in its frontmatter: say what the skill does and when to use it",
      "name-mismatch/SKILL.md:2: is named 'other-name' but its folder is 'name-mismatch': the name must equal the folder's name (rename one)",
      "no-frontmatter/SKILL.md:1: has no frontmatter: a SKILL.md starts with a line '---', then its name and description in YAML, then '---'",
      "unclosed/SKILL.md:1: has frontmatter that is never closed: end it with a line '---' before the instructions",
      'wrong-types/SKILL.md:9: has frontmatter that is not valid YAML here: lists and mappings inside [ ... ] are not supported in SKILL.md frontmatter',
    ]);
  });

  it('reads YAML as people write it: a BOM, CRLF line ends, quotes and block scalars', async () => {
    const root = await temporaryFolder();
    await mkdir(join(root, 'windows'));
    const text =
      '\uFEFF---\r\nname: windows\r\ndescription: "Made on Windows: CRLF and a BOM."\r\nmetadata:\r\n  note: |\r\n    two\r\n    lines\r\n---\r\nBody line.\r\n';
    await writeFile(join(root, 'windows', 'SKILL.md'), text);
    const found = await discoverSkills({ folders: [root], user: false });
    expect(found.problems).toEqual([]);
    expect(found.skills[0]).toMatchObject({
      name: 'windows',
      description: 'Made on Windows: CRLF and a BOM.',
      metadata: { note: 'two\nlines\n' },
    });
    expect(await found.skills[0]?.body()).toBe('Body line.');
  });

  it('reports a SKILL.md that is not UTF-8, UTF-16 or over the size cap, naming the file', async () => {
    const root = await temporaryFolder();
    for (const name of ['latin', 'wide', 'huge']) await mkdir(join(root, name));
    await writeFile(
      join(root, 'latin', 'SKILL.md'),
      Buffer.from('---\nname: latin\ndescription: caf\xe9\n---\n', 'latin1'),
    );
    await writeFile(join(root, 'wide', 'SKILL.md'), Buffer.from('\uFEFF---\nname: wide\n', 'utf16le'));
    await writeFile(
      join(root, 'huge', 'SKILL.md'),
      `---\nname: huge\ndescription: big\n---\n${'x'.repeat(300 * 1024)}`,
    );
    const found = await discoverSkills({ folders: [root], user: false });
    expect(found.skills).toEqual([]);
    expect(found.problems.map(formatSkillProblem).map((line) => line.replace(`${root}/`, ''))).toEqual([
      `huge/SKILL.md: is ${300 * 1024 + 36} bytes, over the 262144 bytes a SKILL.md may have; move details into references/ files`,
      'latin/SKILL.md: is not UTF-8 text; save it as UTF-8',
      'wide/SKILL.md: is UTF-16 text; save it as UTF-8',
    ]);
  });

  it('is not stalled by link loops or deep trees, and finds a linked skill once', async () => {
    const root = await temporaryFolder();
    const skills = join(root, 'skills');
    await writeSkill(join(root, 'store'), 'linked');
    await mkdir(skills);
    await symlink(join(root, 'store', 'linked'), join(skills, 'linked'));
    await symlink(join(root, 'store', 'linked'), join(skills, 'linked-again'));
    await symlink(skills, join(skills, 'loop'));
    await symlink(join(root, 'missing'), join(skills, 'dangling'));
    let deep = join(skills, 'group');
    for (let depth = 0; depth < 40; depth++) deep = join(deep, `level${depth}`);
    await mkdir(deep, { recursive: true });
    await writeSkill(join(skills, 'group'), 'grouped');
    await writeSkill(deep, 'too-deep');
    const found = await discoverSkills({ folders: [skills], user: false });
    expect(found.skills.map((skill) => [skill.name, skill.directory])).toEqual([
      ['grouped', join(skills, 'group', 'grouped')],
      ['linked', join(skills, 'linked')],
    ]);
    expect(found.problems).toEqual([]);
  });

  it('goes through thousands of folders and stops at its folder limit with a warning', async () => {
    const root = await temporaryFolder();
    await Promise.all(Array.from({ length: 2000 }, (_, index) => mkdir(join(root, `empty-${index}`))));
    await writeSkill(root, 'zz-last');
    const all = await discoverSkills({ folders: [root], user: false });
    expect(all.skills.map((skill) => skill.name)).toEqual(['zz-last']);
    const bounded = await discoverSkills({ folders: [root], user: false, limits: { maxFolders: 500 } });
    expect(bounded.skills).toEqual([]);
    expect(bounded.problems.map((problem) => problem.message)).toEqual([
      'holds more than 500 folders; discovery stopped there and later skills are left out',
    ]);
  });

  it('takes a folder that is a skill itself, and says nothing about folders that do not exist', async () => {
    const root = await copyFixtures('project');
    const one = join(root, 'project/.agents/skills/release-notes');
    const found = await discoverSkills({ folders: [one, join(root, 'nowhere')], user: false });
    expect(found.skills.map((skill) => skill.name)).toEqual(['release-notes']);
    expect(found.problems).toEqual([]);
  });
});

describe('skillFolders', () => {
  it('looks in the project folder and the folders above it up to the repository root, then named folders, then the user', async () => {
    const root = await temporaryFolder();
    await mkdir(join(root, 'repo', '.git'), { recursive: true });
    await mkdir(join(root, 'repo', 'packages', 'app'), { recursive: true });
    const folders = skillFolders({
      project: join(root, 'repo/packages/app'),
      folders: ['/team/skills'],
      user: '/home/me/skills',
    });
    expect(folders.map((folder) => [folder.path.replace(root, ''), folder.source])).toEqual([
      ['/repo/packages/app/.agents/skills', 'project'],
      ['/repo/packages/app/.claude/skills', 'project'],
      ['/repo/packages/.agents/skills', 'project'],
      ['/repo/packages/.claude/skills', 'project'],
      ['/repo/.agents/skills', 'project'],
      ['/repo/.claude/skills', 'project'],
      ['/team/skills', 'folder'],
      ['/home/me/skills', 'user'],
    ]);
    const outside = skillFolders({ project: join(root, 'loose'), user: false });
    expect(outside.map((folder) => folder.path.replace(root, ''))).toEqual([
      '/loose/.agents/skills',
      '/loose/.claude/skills',
    ]);
  });

  it('finds a skill at the repository root from a subfolder', async () => {
    const root = await temporaryFolder();
    await mkdir(join(root, '.git'));
    await writeSkill(join(root, '.agents', 'skills'), 'at-root');
    await mkdir(join(root, 'sub', 'dir'), { recursive: true });
    const found = await discoverSkills({ project: join(root, 'sub', 'dir'), user: false });
    expect(found.skills.map((skill) => skill.name)).toEqual(['at-root']);
  });

  it('honours XDG_CONFIG_HOME for the user folder when it is absolute', () => {
    expect(userSkillsFolder({ XDG_CONFIG_HOME: '/xdg', HOME: '/home/me' })).toBe('/xdg/agent-core/skills');
    expect(userSkillsFolder({ XDG_CONFIG_HOME: 'relative', HOME: '/home/me' })).toBe(
      '/home/me/.config/agent-core/skills',
    );
    expect(userSkillsFolder({ HOME: '/home/me' })).toBe('/home/me/.config/agent-core/skills');
  });
});
