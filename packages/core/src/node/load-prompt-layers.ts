import { readFile } from 'node:fs/promises';
import { ConfigError } from '../errors/config-error.js';
import type { PromptLayers } from '../system-prompt/prompt-layers.js';

/** Paths of the prompt files of each layer; any may be missing on disk. */
export interface PromptLayerFiles {
  default?: string;
  /** Mode name to file path. */
  modes?: Readonly<Record<string, string>>;
  /** The project's override, e.g. `<project>/.agent-core/system-prompt.md`. */
  project?: string;
}

async function readIfPresent(path: string | undefined): Promise<string | undefined> {
  if (path === undefined) return undefined;
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
    throw new ConfigError(`Could not read the system prompt file ${path}: ${String(error)}`, {
      cause: error,
    });
  }
}

/**
 * Reads layered system prompt files (Node only) into `PromptLayers` for a
 * `SystemPromptBuilder`'s `identity`. A file that does not exist leaves its
 * layer out; any other read failure throws `ConfigError` naming the file.
 *
 * @example
 * const identity = await loadPromptLayers({ default: 'prompts/default.md', project: '.agent-core/system-prompt.md' });
 * const builder = new SystemPromptBuilder({ identity, mode: 'code' });
 */
export async function loadPromptLayers(files: PromptLayerFiles): Promise<PromptLayers> {
  const layers: PromptLayers = {};
  const [base, project] = await Promise.all([readIfPresent(files.default), readIfPresent(files.project)]);
  if (base !== undefined) layers.default = base;
  if (project !== undefined) layers.project = project;
  const modes: Record<string, string> = {};
  for (const [mode, path] of Object.entries(files.modes ?? {})) {
    const text = await readIfPresent(path);
    if (text !== undefined) modes[mode] = text;
  }
  if (Object.keys(modes).length > 0) layers.modes = modes;
  return layers;
}
