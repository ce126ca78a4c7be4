import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import {
  type DiscoverSkillsOptions,
  discoverSkills,
  formatSkillProblem,
  type SkillDiscovery,
  userSkillsFolder,
} from '@agent-core/skills';
import type { ConfigSource } from '../config/config-layers.js';
import type { CliConfig } from '../config/load-config.js';

/**
 * Where a session in `cwd` finds its skills, from the configuration's
 * `[skills]`: the project's folders (from `cwd` up to its repository root),
 * then `skills.folders`, then the user's folder unless `skills.user` is
 * false. Undefined when `skills.enabled` is false (`--no-skills`), unless
 * `evenIfOff` (for `skills validate`).
 */
export function skillSearch(
  config: CliConfig,
  cwd: string,
  options: { evenIfOff?: boolean } = {},
): DiscoverSkillsOptions | undefined {
  const entry = config.values.skills ?? {};
  if (entry.enabled === false && options.evenIfOff !== true) return undefined;
  const base = baseFolder(config.sources.get('skills.folders'), config.cwd);
  const home = process.env.HOME || homedir();
  const folders = (entry.folders ?? []).map((folder) =>
    folder === '~' || folder.startsWith('~/') ? join(home, folder.slice(1)) : resolve(base, folder),
  );
  return {
    project: cwd,
    folders,
    user: entry.user === false ? false : userSkillsFolder(process.env),
  };
}

/**
 * The skills of a session working in `cwd` (see `skillSearch`), discovered
 * and validated when its agent is made; each broken one is a warning (its
 * file, line and what is wrong) and is left out, the session goes on.
 * Undefined when skills are turned off.
 */
export async function skillsForSession(
  config: CliConfig,
  cwd: string,
  warn: (message: string) => void,
): Promise<SkillDiscovery | undefined> {
  const search = skillSearch(config, cwd);
  if (search === undefined) return undefined;
  const found = await discoverSkills(search);
  for (const problem of found.problems)
    if (problem.severity === 'error') warn(`skill left out: ${formatSkillProblem(problem)}`);
  return found;
}

/** The folder a relative `skills.folders` entry is read from: the project (project file), the user config folder (user file), else the working folder. */
function baseFolder(source: ConfigSource | undefined, cwd: string): string {
  if (source?.kind === 'user-file') return dirname(source.path);
  // <project>/.agent-core/config.toml: the project folder.
  if (source?.kind === 'project-file') return dirname(dirname(source.path));
  return isAbsolute(cwd) ? cwd : resolve(cwd);
}
