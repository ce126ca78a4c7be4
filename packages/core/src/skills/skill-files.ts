import { AgentError } from '../errors/agent-error.js';
import type { Skill, SkillFiles } from './skill.js';
import { SkillError } from './skill-error.js';

function isReader(files: Skill['files']): files is SkillFiles {
  return typeof (files as SkillFiles | undefined)?.read === 'function';
}

/** The relative paths of a skill's bundled files, sorted; none when it has no `files`. */
export async function listSkillFiles(skill: Skill): Promise<string[]> {
  const files = skill.files;
  if (files === undefined) return [];
  const paths = isReader(files) ? [...(await files.list())] : Object.keys(files);
  return paths.sort();
}

/**
 * The text of one bundled file, by a path `normalizeSkillPath` already
 * checked. A map of texts is looked up by its own keys only; a reader is
 * asked, and what it throws becomes a `SkillError` that names the skill.
 */
export async function readSkillFile(skill: Skill, path: string): Promise<string> {
  const files = skill.files;
  if (files === undefined)
    throw new SkillError(
      'file_not_found',
      `Skill '${skill.name}' has no bundled files; its instructions are all there is.`,
      {
        skill: skill.name,
        path,
      },
    );
  if (!isReader(files)) {
    if (Object.hasOwn(files, path)) return files[path] as string;
    const known = Object.keys(files).sort();
    throw new SkillError(
      'file_not_found',
      `Skill '${skill.name}' has no file '${path}'. Its files are: ${known.slice(0, 50).join(', ')}${known.length > 50 ? ', …' : ''}.`,
      { skill: skill.name, path },
    );
  }
  try {
    return await files.read(path);
  } catch (error) {
    // Any agent-core error already says what happened, whichever copy of core made it.
    if (AgentError.isInstance(error)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new SkillError(
      'skill_unreadable',
      `File '${path}' of skill '${skill.name}' could not be read: ${reason}`,
      {
        skill: skill.name,
        path,
        cause: error,
      },
    );
  }
}
