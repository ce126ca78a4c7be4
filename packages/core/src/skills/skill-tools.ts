import type { JsonSchema } from '../provider/provider.js';
import { defineTool } from '../tool/define-tool.js';
import type { AnyTool, ToolContext } from '../tool/tool.js';
import { checkSkills } from './check-skills.js';
import { normalizeSkillPath } from './normalize-skill-path.js';
import type { Skill } from './skill.js';
import type { SkillEventData } from './skill-event.js';
import { SkillError } from './skill-error.js';
import { isStillSent, loadedSkillHeader, skillFileHeader, skillToolNames } from './skill-history.js';
import { listSkillFiles, readSkillFile } from './skill-files.js';

// The files a load result lists; a skill with more says how many it left out.
const listedFiles = 50;

const loadParameters: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string', description: 'The name of the skill, as listed under Skills.' } },
  required: ['name'],
  additionalProperties: false,
};

const readParameters: JsonSchema = {
  type: 'object',
  properties: {
    skill: { type: 'string', description: 'The name of the skill the file belongs to.' },
    path: {
      type: 'string',
      description:
        "The file's path relative to the skill's folder, as its instructions give it (e.g. references/guide.md).",
    },
  },
  required: ['skill', 'path'],
  additionalProperties: false,
};

/**
 * The tools that disclose skills progressively: `load_skill` gives the model
 * a skill's instructions when it decides to use it, and `read_skill_file`
 * (only when some skill has `files`) one of its bundled files. Both are
 * `risk: 'read'` tools through the gate like any other; they only read, never
 * run a skill's scripts. A text the model still has in its history is not
 * sent again (it is told so), unless a compaction dropped it. Throws
 * `ConfigError` for invalid skills; no skills, no tools.
 *
 * @example
 * const skills = [{ name: 'haiku', description: 'Writes haiku. Use when asked for a poem.', body: 'Three lines: 5, 7, 5 syllables.' }];
 * const agent = new Agent({ provider, model, tools: skillTools(skills), systemPrompt: new SystemPromptBuilder({ skills }).build });
 */
export function skillTools(skills: readonly Skill[]): AnyTool[] {
  const byName = checkSkills(skills);
  if (byName.size === 0) return [];
  const find = (name: string): Skill => {
    const skill = byName.get(name);
    if (skill !== undefined) return skill;
    const known = [...byName.keys()];
    const shown = known.slice(0, 50).join(', ');
    throw new SkillError(
      'unknown_skill',
      `There is no skill named '${name}'. The skills are: ${shown}${known.length > 50 ? `, and ${known.length - 50} more listed under Skills` : ''}.`,
      { skill: name },
    );
  };

  const loadSkill = defineTool({
    name: skillToolNames.load,
    description:
      "Loads a skill's instructions. Call it with the skill's name when a task matches that skill's description (see Skills), before you start on the task, then follow the instructions.",
    parameters: loadParameters,
    risk: 'read',
    idempotent: true,
    execute: async (input, context) => {
      const skill = find(String(input.name));
      const header = loadedSkillHeader(skill.name, skill.location);
      if (context.agent !== undefined && isStillSent(context.agent.messages, skillToolNames.load, header)) {
        report(context, { action: 'load', skill: skill.name, sent: false });
        return `Skill '${skill.name}' is already loaded: its instructions are in an earlier ${skillToolNames.load} result above. Follow them; there is no need to load it again.`;
      }
      let body: string;
      try {
        body = typeof skill.body === 'string' ? skill.body : await skill.body();
      } catch (error) {
        throw unreadable(skill.name, error);
      }
      const files = await filesNote(skill);
      report(context, { action: 'load', skill: skill.name, sent: true });
      return `${header}\n${body.trim()}\n</skill>${files}`;
    },
  });
  if (![...byName.values()].some((skill) => skill.files !== undefined)) return [loadSkill];

  const readFile = defineTool({
    name: skillToolNames.readFile,
    description:
      "Reads a file bundled with a skill (a reference, template or script its instructions mention), by its path relative to the skill's folder. Reading a script does not run it.",
    parameters: readParameters,
    risk: 'read',
    idempotent: true,
    execute: async (input, context) => {
      const skill = find(String(input.skill));
      const path = normalizeSkillPath(skill.name, String(input.path));
      const header = skillFileHeader(skill.name, path);
      if (
        context.agent !== undefined &&
        isStillSent(context.agent.messages, skillToolNames.readFile, header)
      ) {
        report(context, { action: 'read_file', skill: skill.name, path, sent: false });
        return `File '${path}' of skill '${skill.name}' is already in an earlier ${skillToolNames.readFile} result above; use it from there.`;
      }
      const text = await readSkillFile(skill, path);
      report(context, { action: 'read_file', skill: skill.name, path, sent: true });
      return `${header}\n${text}\n</skill_file>`;
    },
  });
  return [loadSkill, readFile];
}

/** The line after a loaded body that lists the skill's files, or '' when it has none or they cannot be listed. */
async function filesNote(skill: Skill): Promise<string> {
  let paths: readonly string[];
  try {
    paths = await listSkillFiles(skill);
  } catch {
    // The body is what matters; a folder that cannot be listed still lets the model read the files the body names.
    return '';
  }
  if (paths.length === 0) return '';
  const shown = paths.slice(0, listedFiles).join(', ');
  const more = paths.length > listedFiles ? `, and ${paths.length - listedFiles} more` : '';
  return `\nFiles of this skill (read one with ${skillToolNames.readFile}): ${shown}${more}.`;
}

function unreadable(skill: string, error: unknown): SkillError {
  if (error instanceof SkillError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new SkillError('skill_unreadable', `Skill '${skill}' could not be read: ${reason}`, {
    skill,
    cause: error,
  });
}

function report(context: ToolContext, data: SkillEventData): void {
  context.run?.emit({ type: 'custom', name: 'skill', data });
}
