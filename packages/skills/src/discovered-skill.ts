import type { Skill, SkillFiles } from '@agent-core/core';

/** Where a skill was found: the project's folders, a folder the caller named, or the user's folder. */
export type SkillSource = 'project' | 'folder' | 'user';

/**
 * A valid skill found on disk: a core `Skill` (its body read from its
 * `SKILL.md` when the model loads it, its files read on demand inside its
 * folder) and where it came from.
 */
export interface DiscoveredSkill extends Skill {
  readonly body: () => Promise<string>;
  readonly files: SkillFiles;
  /** The absolute path of its `SKILL.md`. */
  readonly location: string;
  readonly source: SkillSource;
  /** The skill's folder, as found (not resolved through links). */
  readonly directory: string;
}
