import { ConfigError } from '../errors/config-error.js';
import type { PromptLayers } from './prompt-layers.js';

/** Paths of the prompt files of each layer; any may be missing on disk. */
export interface PromptLayerFiles {
  default?: string;
  /** Mode name to file path. */
  modes?: Readonly<Record<string, string>>;
  /** The project's override, e.g. `<project>/.agent-core/system-prompt.md`. */
  project?: string;
}

/**
 * Reads one file as text: `(path) => readFile(path, 'utf8')` on Node, `Deno.readTextFile`,
 * `Bun.file(path).text()`. Core takes it from the caller so it never imports a runtime's file system.
 */
export type ReadTextFile = (path: string) => Promise<string>;

/**
 * Reads layered system prompt files into `PromptLayers` for a
 * `SystemPromptBuilder`'s `identity`, through the runtime's `readText`. A file
 * that does not exist leaves its layer out; any other read failure throws
 * `ConfigError` naming the file.
 *
 * @example
 * // readFile from Node's fs/promises; Deno.readTextFile or Bun.file(path).text() elsewhere.
 * const identity = await loadPromptLayers({ default: 'prompts/default.md' }, (path) => readFile(path, 'utf8'));
 */
export async function loadPromptLayers(
  files: PromptLayerFiles,
  readText: ReadTextFile,
): Promise<PromptLayers> {
  const read = (path: string | undefined) => readIfPresent(path, readText);
  const layers: PromptLayers = {};
  const [base, project] = await Promise.all([read(files.default), read(files.project)]);
  if (base !== undefined) layers.default = base;
  if (project !== undefined) layers.project = project;
  const modes: Record<string, string> = {};
  for (const [mode, path] of Object.entries(files.modes ?? {})) {
    const text = await read(path);
    if (text !== undefined) modes[mode] = text;
  }
  if (Object.keys(modes).length > 0) layers.modes = modes;
  return layers;
}

async function readIfPresent(path: string | undefined, readText: ReadTextFile): Promise<string | undefined> {
  if (path === undefined) return undefined;
  try {
    return await readText(path);
  } catch (error) {
    if (isMissingFile(error)) return undefined;
    throw new ConfigError(`Could not read the system prompt file ${path}: ${String(error)}`, {
      cause: error,
    });
  }
}

/** Node's and Bun's `ENOENT`, Deno's `NotFound`. */
function isMissingFile(error: unknown): boolean {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  return code === 'ENOENT' || name === 'NotFound';
}
