import type { Skill } from './skill.js';
import { skillToolNames } from './skill-history.js';
import { skillLimits } from './skill-limits.js';

/** What the skills section shows of a skill: its name, its description and, when known, where it is. */
export type SkillSummary = Pick<Skill, 'name' | 'description' | 'location'>;

// Line breaks, other whitespace and control characters all become one space: a value stays on its own line.
const breaks = /[\s\p{Cc}\p{Zl}\p{Zp}]+/gu;

/** A value on one line, cut to `limit` characters: it cannot start a line, so it cannot open a section of its own. */
function oneLine(text: string, limit: number): string {
  const line = String(text).replace(breaks, ' ').trim();
  const characters = [...line];
  return characters.length <= limit ? line : `${characters.slice(0, limit - 1).join('')}…`;
}

/**
 * The text of the system prompt's skills section: one line per skill (name,
 * description, location), preceded, when the call offers `load_skill`, by how
 * to load one. Only these go up front; a body is sent when the model loads it.
 * Every value is put on one line, so nothing in a skill can add a heading or
 * change another section. Empty when there are no skills.
 */
export function renderSkillsSection(skills: readonly SkillSummary[], toolNames: ReadonlySet<string>): string {
  if (skills.length === 0) return '';
  const lines: string[] = [];
  if (toolNames.has(skillToolNames.load)) {
    const files = toolNames.has(skillToolNames.readFile)
      ? `; read a file it refers to with ${skillToolNames.readFile}`
      : '';
    lines.push(
      `Skills hold instructions for particular tasks. When a task matches a skill's description, call ${skillToolNames.load} with its name before you start and follow what it says${files}. Load only the skills the task needs.`,
    );
  }
  for (const skill of skills) {
    const name = oneLine(skill.name, skillLimits.nameLength);
    const description = oneLine(skill.description, skillLimits.descriptionLength);
    const location = skill.location === undefined ? '' : ` (${oneLine(skill.location, 1024)})`;
    lines.push(`- ${name}: ${description}${location}`);
  }
  return lines.join('\n');
}
