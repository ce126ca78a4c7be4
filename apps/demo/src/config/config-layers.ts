import type { ConfigFile } from './config-file.js';

/** Where a configuration value came from, for `config show` and for messages. */
export type ConfigSource =
  | { kind: 'default'; note?: string }
  | { kind: 'user-file' | 'project-file'; path: string; line: number | undefined }
  | { kind: 'environment'; variable: string }
  | { kind: 'flag'; flag: string };

/** One layer of configuration: its values and where each came from. */
export interface ConfigLayer {
  config: ConfigFile;
  /** The source of the value at a dotted path of this layer. */
  sourceOf(path: readonly string[]): ConfigSource;
}

/** The merged values and the source of each leaf, by dotted path. */
export interface MergedConfig {
  values: ConfigFile;
  sources: Map<string, ConfigSource>;
}

// Entries that replace each other whole: a server or an alias is never half one layer's, half another's.
const wholeEntries = new Set(['aliases', 'mcp_servers']);

const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/**
 * Merges layers from lowest to highest precedence: tables key by key, while
 * arrays, aliases and MCP servers are replaced whole. A policy given as a
 * profile name counts as `policy.profile`, so a project can name a profile
 * while the user's per-tool overrides stay.
 */
export function mergeLayers(layers: readonly ConfigLayer[]): MergedConfig {
  const values: Record<string, unknown> = {};
  const sources = new Map<string, ConfigSource>();
  for (const layer of layers) {
    const config: Record<string, unknown> = { ...layer.config };
    const sourceOf = (path: readonly string[]) =>
      path[0] === 'policy' && typeof layer.config.policy === 'string'
        ? layer.sourceOf(['policy'])
        : layer.sourceOf(path);
    if (typeof config.policy === 'string') config.policy = { profile: config.policy };
    assign(values, config, [], sources, sourceOf);
  }
  return { values: values as ConfigFile, sources };
}

function assign(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
  path: string[],
  sources: Map<string, ConfigSource>,
  sourceOf: (path: readonly string[]) => ConfigSource,
): void {
  for (const [key, value] of Object.entries(source)) {
    if (value === undefined) continue;
    const at = [...path, key];
    const whole = path.length === 1 && wholeEntries.has(path[0] as string);
    if (isTable(value) && !whole) {
      const existing = target[key];
      const child = isTable(existing) ? existing : {};
      target[key] = child;
      assign(child, value, at, sources, sourceOf);
      continue;
    }
    const prefix = `${at.join('.')}.`;
    for (const known of [...sources.keys()]) if (known.startsWith(prefix)) sources.delete(known);
    target[key] = structuredClone(value);
    sources.set(at.join('.'), sourceOf(at));
  }
}

/** How `config show` and messages name a source: `project file /repo/.agent-core/config.toml:3`. */
export function describeSource(source: ConfigSource): string {
  switch (source.kind) {
    case 'default':
      return source.note === undefined ? 'default' : `default: ${source.note}`;
    case 'user-file':
    case 'project-file':
      return `${source.kind === 'user-file' ? 'user' : 'project'} file ${source.path}${source.line === undefined ? '' : `:${source.line}`}`;
    case 'environment':
      return `environment ${source.variable}`;
    case 'flag':
      return `flag ${source.flag}`;
  }
}
