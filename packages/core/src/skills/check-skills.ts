import { ConfigError } from '../errors/config-error.js';
import type { Skill } from './skill.js';
import { skillLimits, skillNameProblem } from './skill-limits.js';

/**
 * Checks skills given as objects before an agent uses them: a valid name
 * (see `skillNameProblem`), a description of 1 to 1,024 characters, a body,
 * and no name twice. Throws `ConfigError` naming the skill and what to fix.
 * Returns a map from name to skill.
 */
export function checkSkills(skills: readonly Skill[]): ReadonlyMap<string, Skill> {
  if (!Array.isArray(skills)) throw new ConfigError('skills must be an array of Skill objects.');
  const byName = new Map<string, Skill>();
  for (const [index, skill] of skills.entries()) {
    const where = `skills[${index}]`;
    if (typeof skill !== 'object' || skill === null)
      throw new ConfigError(`${where} is not a Skill object: give { name, description, body }.`);
    const nameProblem = skillNameProblem(skill.name);
    if (nameProblem !== undefined) throw new ConfigError(`${where}: ${nameProblem}.`);
    const label = `skill '${skill.name}'`;
    const description = skill.description;
    if (typeof description !== 'string' || description.trim() === '')
      throw new ConfigError(`${label} needs a description that says what it does and when to use it.`);
    if ([...description].length > skillLimits.descriptionLength)
      throw new ConfigError(
        `${label} has a description of ${[...description].length} characters; the limit is ${skillLimits.descriptionLength}.`,
      );
    if (typeof skill.body !== 'string' && typeof skill.body !== 'function')
      throw new ConfigError(
        `${label} needs a body: its instructions as a string, or a function that reads them.`,
      );
    if (skill.files !== undefined && (typeof skill.files !== 'object' || skill.files === null))
      throw new ConfigError(
        `${label} has files that are neither a map of texts nor a reader with list() and read().`,
      );
    if (byName.has(skill.name))
      throw new ConfigError(
        `Two skills are named '${skill.name}'; skill names must be unique (keep the one that should win).`,
      );
    byName.set(skill.name, skill);
  }
  return byName;
}
