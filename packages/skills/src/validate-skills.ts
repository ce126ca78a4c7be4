import { resolve } from 'node:path';
import { type DiscoveryLimits, discoverSkills } from './discover-skills.js';
import type { DiscoveredSkill } from './discovered-skill.js';
import type { SkillProblem } from './skill-problem.js';

/** What `validateSkills` found: the valid skills and every problem, warnings included. */
export interface SkillValidation {
  skills: DiscoveredSkill[];
  problems: SkillProblem[];
  /** True when no problem is an error. */
  ok: boolean;
}

/**
 * Validates the skill in `path` (a folder with a `SKILL.md`) or every skill
 * below it (a folder of skills), to the Agent Skills specification. Two
 * skills of one name are an error here; a folder with no skill at all is one too.
 */
export async function validateSkills(path: string, limits: DiscoveryLimits = {}): Promise<SkillValidation> {
  const folder = resolve(path);
  const found = await discoverSkills({ folders: [folder], user: false, limits });
  const problems = [...found.problems];
  for (const { skill, by } of found.shadowed)
    problems.push({
      file: skill.location,
      severity: 'error',
      message: `is named '${skill.name}' like ${by.location}; skill names must be unique`,
    });
  if (found.skills.length === 0 && !problems.some((problem) => problem.severity === 'error'))
    problems.push({
      file: folder,
      severity: 'error',
      message: 'holds no skill: no folder with a SKILL.md was found',
    });
  return { skills: found.skills, problems, ok: !problems.some((problem) => problem.severity === 'error') };
}
