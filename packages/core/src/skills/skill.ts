/**
 * Reads the files bundled with a skill, on demand. `@agent-core/skills` gives
 * one for a folder on disk; a browser or edge app may give its own.
 *
 * Contract:
 * - `read` gets a path already checked by `normalizeSkillPath` (relative,
 *   `/`-separated, never leaving the skill's folder lexically); it must still
 *   refuse whatever leads outside the folder in its own storage (a symbolic
 *   link, say) by throwing, best a `SkillError` whose message says why.
 * - `list` returns relative `/`-separated paths; it may stop at a limit of its own.
 */
export interface SkillFiles {
  list(): readonly string[] | Promise<readonly string[]>;
  read(path: string): string | Promise<string>;
}

/**
 * One Agent Skill as plain values: what the model sees up front (`name`,
 * `description`, `location`), the instructions it loads when it decides to
 * (`body`), and the files the body refers to (`files`). Core needs no file
 * system to use it; `@agent-core/skills` turns folders with a `SKILL.md` into these.
 */
export interface Skill {
  /** 1 to 64 lowercase letters, digits and single hyphens (the Agent Skills rule; see `skillNameProblem`). */
  readonly name: string;
  /** What the skill does and when to use it: 1 to 1,024 characters, shown to the model in the system prompt. */
  readonly description: string;
  /** The instructions (the `SKILL.md` text after its frontmatter), or a function that reads them when the model loads the skill. */
  readonly body: string | (() => string | Promise<string>);
  /** The bundled files by relative path (`references/forms.md`), as texts or through a reader. */
  readonly files?: Readonly<Record<string, string>> | SkillFiles;
  /** Where the skill comes from, shown to the model beside its description: the `SKILL.md` path or a URL. */
  readonly location?: string;
  readonly license?: string;
  /** What the skill needs of its environment, in words (at most 500 characters). */
  readonly compatibility?: string;
  readonly metadata?: Readonly<Record<string, string>>;
  /** The tools its `allowed-tools` names; pre-approved only through `preApproveSkillTools`. */
  readonly allowedTools?: readonly string[];
}
