import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { SkillSource } from './discovered-skill.js';

/** A folder searched for skills, and the source its skills count as. */
export interface SkillFolder {
  path: string;
  source: SkillSource;
}

/** Where to look for skills; see `skillFolders`. */
export interface SkillFolderOptions {
  /** The project's folder (a session's working folder): its `.agents/skills/` and `.claude/skills/`, and those of the folders above it up to the repository root. */
  project?: string;
  /** More folders of skills, after the project's and before the user's, in this order. */
  folders?: readonly string[];
  /** The user's folder of skills; default `$XDG_CONFIG_HOME/agent-core/skills` (`~/.config/agent-core/skills`); `false` for none. */
  user?: string | false;
  /** The environment the user's folder is read from (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The project's folders of skills, in each folder from here up to the repository root. */
const projectFolders = ['.agents/skills', '.claude/skills'];

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * The user's folder of skills: `$XDG_CONFIG_HOME/agent-core/skills` when that
 * variable is an absolute path (the XDG rule), else `~/.config/agent-core/skills`.
 */
export function userSkillsFolder(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const config = env.XDG_CONFIG_HOME;
  const base = config !== undefined && isAbsolute(config) ? config : join(env.HOME || homedir(), '.config');
  return join(base, 'agent-core', 'skills');
}

/**
 * The folders searched for skills, highest precedence first: the project's
 * (`.agents/skills/`, then `.claude/skills/`, in the project folder, then in
 * each folder above it up to the nearest one holding `.git`; the project
 * folder alone when there is no repository), then `folders`, then the user's.
 * A skill found earlier shadows one of the same name found later.
 */
export function skillFolders(options: SkillFolderOptions = {}): SkillFolder[] {
  const found: SkillFolder[] = [];
  if (options.project !== undefined) {
    const start = resolve(options.project);
    const chain: string[] = [];
    let repository = false;
    for (let folder = start; ; folder = dirname(folder)) {
      chain.push(folder);
      if (exists(join(folder, '.git'))) {
        repository = true;
        break;
      }
      if (dirname(folder) === folder) break;
    }
    for (const folder of repository ? chain : [start])
      for (const name of projectFolders) found.push({ path: join(folder, name), source: 'project' });
  }
  for (const folder of options.folders ?? []) found.push({ path: resolve(folder), source: 'folder' });
  if (options.user !== false)
    found.push({ path: resolve(options.user ?? userSkillsFolder(options.env)), source: 'user' });
  return found;
}
