import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The description of generated skill `index`: about 250 characters, as real skills' run. */
export function skillDescription(index: number): string {
  return `Handles task family ${index} of the bench: prepares inputs, checks them against the house rules and writes the result in the agreed format. Use when the user asks for task ${index}, mentions its reports, or hands over files of kind ${index % 17}.`;
}

/**
 * A body of `lines` lines of instructions (about 60 characters each): the
 * sizes real skills have (the three of ../shared/fixtures/skills hold 40 to
 * 80 lines; the standard recommends under 500).
 */
export function skillBody(index: number, lines: number): string {
  const out = [`# Task ${index}`, ''];
  for (let line = 0; line < lines; line++)
    out.push(`${line + 1}. Check item ${line} of task ${index} against references/rules.md first.`);
  return out.join('\n');
}

/** The `SKILL.md` of generated skill `index`: folded description, metadata, allowed-tools, a body. */
export function skillFile(index: number, bodyLines: number): string {
  const name = skillName(index);
  return `---\nname: ${name}\ndescription: >-\n  ${skillDescription(index)}\nlicense: MIT\nmetadata:\n  author: bench\n  version: "1.${index}"\nallowed-tools: shell read_file\n---\n\n${skillBody(index, bodyLines)}\n`;
}

export function skillName(index: number): string {
  return `task-${String(index).padStart(4, '0')}`;
}

/** Writes `count` skills (with a references file each) into `<project>/.agents/skills/`. */
export function writeSkillProject(project: string, count: number, bodyLines = 60): void {
  for (let index = 0; index < count; index++) {
    const folder = join(project, '.agents', 'skills', skillName(index));
    mkdirSync(join(folder, 'references'), { recursive: true });
    writeFileSync(join(folder, 'SKILL.md'), skillFile(index, bodyLines));
    writeFileSync(join(folder, 'references', 'rules.md'), `Rules of task ${index}.\n`);
  }
}
