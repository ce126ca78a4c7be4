import { discoverSkills, formatSkillProblem, type SkillDiscovery, validateSkills } from '@agent-core/skills';
import type { CliConfig } from '../config/load-config.js';
import { exitCodes } from '../exit-codes.js';
import { skillSearch } from '../make-agent/skills-for-session.js';
import type { OutputStream, Style } from '../output/terminal-style.js';

// A description is cut to this many characters in a list line.
const shownDescription = 72;

/**
 * Writes what a session's skills are: each skill with its source and where
 * it is (marked when `loaded` names it), the skills another of the same name
 * hides, and every problem (a broken skill with its file, line and why).
 */
export function writeSkillList(
  found: SkillDiscovery,
  out: OutputStream,
  style: Style,
  loaded: ReadonlySet<string> = new Set(),
): void {
  if (found.skills.length === 0) out.write('No skills.\n');
  const width = Math.max(0, ...found.skills.map((skill) => skill.name.length));
  for (const skill of found.skills) {
    const mark = loaded.has(skill.name) ? ` ${style.green('(loaded)')}` : '';
    out.write(
      `  ${style.bold(skill.name.padEnd(width))}  ${skill.source.padEnd(7)}  ${cut(skill.description)}${mark}\n`,
    );
    out.write(`  ${' '.repeat(width)}  ${' '.repeat(7)}  ${style.dim(skill.location)}\n`);
  }
  for (const { skill, by } of found.shadowed)
    out.write(
      `${style.dim(`  hidden: ${skill.name} (${skill.source}) ${skill.location}, by the ${by.source} skill ${by.location}`)}\n`,
    );
  for (const problem of found.problems) {
    const label = problem.severity === 'error' ? style.red('  broken: ') : style.yellow('  warning: ');
    out.write(`${label}${formatSkillProblem({ ...problem, severity: 'error' })}\n`);
  }
  const searched = found.folders.map((folder) => `${folder.path} (${folder.source})`);
  out.write(`${style.dim(`Searched, first wins: ${searched.join(', ')}`)}\n`);
}

/**
 * `skills list`: the skills a session in `cwd` gets, from the same folders
 * and rules as the sessions (`[skills]` of the configuration), the hidden
 * ones and the broken ones with why. Exit code 0, also with broken skills.
 */
export async function listSkills(
  config: CliConfig,
  cwd: string,
  out: OutputStream,
  style: Style,
): Promise<number> {
  const search = skillSearch(config, cwd);
  if (search === undefined) {
    out.write('Skills are turned off (skills.enabled = false, or --no-skills).\n');
    return exitCodes.completed;
  }
  writeSkillList(await discoverSkills(search), out, style);
  return exitCodes.completed;
}

/**
 * `skills validate [DIR]`: checks the skills in `DIR` (a skill, or a folder
 * of skills), or without it every folder sessions read skills from, to the
 * Agent Skills specification; errors and warnings with file and line.
 * Exit code 1 when any skill has an error.
 */
export async function validateSkillFolders(
  config: CliConfig,
  cwd: string,
  target: string | undefined,
  out: OutputStream,
  style: Style,
): Promise<number> {
  const found =
    target === undefined
      ? await discoverSkills(skillSearch(config, cwd, { evenIfOff: true }))
      : await validateSkills(target);
  for (const skill of found.skills)
    out.write(`  ${style.green('ok')}  ${skill.name}  ${style.dim(skill.location)}\n`);
  for (const problem of found.problems)
    out.write(
      `  ${problem.severity === 'error' ? style.red('error') : style.yellow('warning')}  ${formatSkillProblem({ ...problem, severity: 'error' })}\n`,
    );
  const errors = found.problems.filter((problem) => problem.severity === 'error').length;
  const warnings = found.problems.length - errors;
  out.write(
    `${count(found.skills.length, 'valid skill')}, ${count(errors, 'error')}, ${count(warnings, 'warning')}.\n`,
  );
  return errors > 0 ? exitCodes.failed : exitCodes.completed;
}

function count(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? '' : 's'}`;
}

function cut(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= shownDescription ? line : `${line.slice(0, shownDescription - 1)}…`;
}
