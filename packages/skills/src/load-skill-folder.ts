import { open, readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { SkillError } from '@agent-core/core';
import type { DiscoveredSkill, SkillSource } from './discovered-skill.js';
import { parseSkillFile } from './parse-skill-file.js';
import { skillFolderFiles } from './skill-folder-files.js';
import { formatSkillProblem, type SkillProblem } from './skill-problem.js';

/** Limits that keep a hostile or broken skill from costing much. */
export interface SkillFileLimits {
  /** The largest `SKILL.md` read, in bytes (default 256 KiB); a larger one is reported and skipped. */
  maxSkillFileBytes?: number;
  /** The largest bundled file `read_skill_file` returns, in bytes (default 256 KiB). */
  maxFileBytes?: number;
}

/** The skill of one folder, or why there is none, and its warnings. */
export interface LoadedSkillFolder {
  skill: DiscoveredSkill | undefined;
  problems: SkillProblem[];
}

/** The `SKILL.md` of a folder (a lowercase `skill.md` is accepted too), or undefined. */
export async function skillFileOf(directory: string): Promise<string | undefined> {
  for (const name of ['SKILL.md', 'skill.md']) {
    const file = join(directory, name);
    const stats = await stat(file).catch(() => undefined);
    if (stats !== undefined) return file;
  }
  return undefined;
}

/**
 * Reads and validates the skill in `directory` (its `SKILL.md`; see
 * `parseSkillFile`). The skill's body is read again from the file when the
 * model loads it, so a skill costs its frontmatter until then. Never throws.
 */
export async function loadSkillFolder(
  directory: string,
  options: SkillFileLimits & {
    source?: SkillSource;
    /** Its `SKILL.md` when the caller already found it (`skillFileOf`). */
    file?: string;
  } = {},
): Promise<LoadedSkillFolder> {
  const folder = resolve(directory);
  const maxSkillFileBytes = options.maxSkillFileBytes ?? 256 * 1024;
  const file = options.file ?? (await skillFileOf(folder));
  if (file === undefined)
    return {
      skill: undefined,
      problems: [{ file: folder, severity: 'error', message: 'holds no SKILL.md' }],
    };
  const problem = (message: string): LoadedSkillFolder => ({
    skill: undefined,
    problems: [{ file, severity: 'error', message }],
  });
  let bytes: Uint8Array;
  try {
    // One open, one stat and one read: discovery does this for every skill.
    const handle = await open(file, 'r');
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return problem('is not a regular file');
      if (stats.size > maxSkillFileBytes)
        return problem(
          `is ${stats.size} bytes, over the ${maxSkillFileBytes} bytes a SKILL.md may have; move details into references/ files`,
        );
      const buffer = new Uint8Array(stats.size);
      const { bytesRead } = await handle.read(buffer, 0, stats.size, 0);
      bytes = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    return problem(`cannot be read (${error instanceof Error ? error.message : String(error)})`);
  }
  const parsed = parseSkillFile(bytes, { file, folderName: basename(folder) });
  const content = parsed.content;
  if (content === undefined) return { skill: undefined, problems: parsed.problems };
  const name = content.name;
  const body = async (): Promise<string> => {
    // Read again when the model loads it: the frontmatter was checked at discovery, the body may have changed since.
    const again = parseSkillFile(await readFile(file), { file, folderName: basename(folder) });
    if (again.content === undefined) {
      const why = again.problems
        .filter((entry) => entry.severity === 'error')
        .map(formatSkillProblem)
        .join('; ');
      throw new SkillError(
        'skill_unreadable',
        `Skill '${name}' changed on disk and is no longer valid: ${why}`,
        { skill: name },
      );
    }
    return again.content.body;
  };
  const skill: DiscoveredSkill = {
    name,
    description: content.description,
    body,
    files: skillFolderFiles(
      name,
      folder,
      options.maxFileBytes === undefined ? {} : { maxFileBytes: options.maxFileBytes },
    ),
    location: file,
    source: options.source ?? 'folder',
    directory: folder,
    ...(content.license === undefined ? {} : { license: content.license }),
    ...(content.compatibility === undefined ? {} : { compatibility: content.compatibility }),
    ...(content.metadata === undefined ? {} : { metadata: content.metadata }),
    ...(content.allowedTools === undefined ? {} : { allowedTools: content.allowedTools }),
  };
  return { skill, problems: parsed.problems };
}
