import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The files a project may hold for the CLI, found by walking up from the working directory. */
export interface ProjectFiles {
  /** The folder holding `.agent-core/`, or undefined when none was found up to the root. */
  root: string | undefined;
  /** `<root>/.agent-core/config.toml`, when there is a project. */
  config: string | undefined;
  /** `<root>/.agent-core/system_prompt.md`: replaces the CLI's own identity prompt. */
  systemPrompt: string | undefined;
  /** `AGENTS.md` in the working directory or the nearest folder above it up to the project root. */
  agents: string | undefined;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Finds the project of `cwd`: the nearest folder, from `cwd` up to the file
 * system's root, that holds `.agent-core/`, and the `AGENTS.md` closest to
 * `cwd` within it (or in `cwd` alone when there is no project).
 */
export function findProjectFiles(cwd: string): ProjectFiles {
  let root: string | undefined;
  for (let folder = cwd; ; folder = dirname(folder)) {
    if (isDirectory(join(folder, '.agent-core'))) {
      root = folder;
      break;
    }
    if (dirname(folder) === folder) break;
  }
  let agents: string | undefined;
  for (let folder = cwd; ; folder = dirname(folder)) {
    if (isFile(join(folder, 'AGENTS.md'))) {
      agents = join(folder, 'AGENTS.md');
      break;
    }
    if (root === undefined || folder === root || dirname(folder) === folder) break;
  }
  return {
    root,
    config: root === undefined ? undefined : join(root, '.agent-core', 'config.toml'),
    systemPrompt: root === undefined ? undefined : join(root, '.agent-core', 'system_prompt.md'),
    agents,
  };
}
