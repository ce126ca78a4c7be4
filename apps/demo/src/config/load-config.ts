import { join } from 'node:path';
import { checkNames } from './check-names.js';
import { type ConfigFile, checkConfigFile, type LogLevel, type PolicyEntry } from './config-file.js';
import { ConfigFileError } from './config-file-error.js';
import { type ConfigLayer, type ConfigSource, mergeLayers } from './config-layers.js';
import { lineOf } from './key-lines.js';
import { findProjectFiles, type ProjectFiles } from './project-files.js';
import { readConfigFile } from './read-config-file.js';
import { dataDirectory, type Environment, userConfigFile } from './xdg-paths.js';

/** What the command line says about configuration; each field overrides every other layer. */
export interface ConfigFlags {
  provider?: string;
  model?: string;
  /** An OpenAI-compatible server for the chosen provider (`openai` when none is chosen). */
  baseUrl?: string;
  /** What messages call the provider. */
  providerName?: string;
  orchestrator?: string;
  tools?: string[];
  /** MCP server command lines (`--mcp`), added as servers `mcp`, or `mcp1`, `mcp2`... */
  mcp?: string[];
  policy?: string;
  contextWindow?: number;
  store?: string;
  /** `--data-dir`: the store is then `<dir>/sessions`. */
  dataDir?: string;
  logLevel?: LogLevel;
  /** `--no-skills`: sessions get no Agent Skills. */
  noSkills?: boolean;
  /** `--concurrency`: runs one worker process runs at once. */
  concurrency?: number;
}

/** Where the configuration is read from. */
export interface ConfigRequest {
  flags?: ConfigFlags;
  env: Environment;
  /** The working directory: where the project file is looked for. */
  cwd: string;
}

/**
 * The merged configuration of the CLI: flags, then environment, then the
 * project file, then the user file, then defaults. `values` holds the winner
 * of each key, `sources` where each came from (by dotted key), and `secrets`
 * every API key and URL password, to mask wherever text leaves the process.
 */
export interface CliConfig {
  values: ConfigFile & { policy?: PolicyEntry };
  sources: Map<string, ConfigSource>;
  /** The session store: a folder, or a URL such as `postgres://...`. */
  store: string;
  userFile: { path: string; found: boolean };
  project: ProjectFiles & { found: boolean };
  cwd: string;
  secrets: string[];
}

// Variables the CLI reads, and the key each one sets.
const environmentKeys: readonly [variable: string, path: readonly string[]][] = [
  ['AGENT_CORE_PROVIDER', ['provider']],
  ['AGENT_CORE_MODEL', ['model']],
  ['AGENT_CORE_ORCHESTRATOR', ['orchestrator']],
  ['AGENT_CORE_TOOLS', ['tools']],
  ['AGENT_CORE_POLICY', ['policy']],
  ['AGENT_CORE_CONTEXT_WINDOW', ['context_window']],
  ['AGENT_CORE_STORE', ['store']],
  ['AGENT_CORE_LOG_LEVEL', ['log_level']],
  ['AGENT_CORE_WORKER_CONCURRENCY', ['worker', 'concurrency']],
  ['ANTHROPIC_API_KEY', ['providers', 'anthropic', 'api_key']],
  ['OPENAI_API_KEY', ['providers', 'openai', 'api_key']],
];

/**
 * Reads and merges every layer of configuration. This is the one function
 * any command calls for its settings (chat, the REPL, `config show`, `acp`).
 * A bad file throws `ConfigFileError` naming its file and line; a bad
 * environment variable a `ConfigFileError` naming the variable.
 */
export async function loadConfig(request: ConfigRequest): Promise<CliConfig> {
  const { env, cwd } = request;
  const userPath = userConfigFile(env);
  const project = findProjectFiles(cwd);
  const [user, projectFile] = await Promise.all([
    readConfigFile(userPath),
    project.config === undefined ? undefined : readConfigFile(project.config),
  ]);
  const layers: ConfigLayer[] = [];
  for (const [file, kind] of [
    [user, 'user-file'],
    [projectFile, 'project-file'],
  ] as const) {
    if (file !== undefined)
      layers.push({
        config: file.config,
        sourceOf: (path) => ({ kind, path: file.path, line: lineOf(file.lines, path) }),
      });
  }
  layers.push(environmentLayer(env), flagLayer(request.flags ?? {}));
  const { values, sources } = mergeLayers(layers);
  applyBaseUrlFlag(values, sources, request.flags ?? {});
  // A name nothing can load fails here, before any command runs, with where it was written.
  const problems = checkNames(values as CliConfig['values'], sources);
  if (problems.length > 0) throw new ConfigFileError(problems);
  const store = values.store ?? join(dataDirectory(env), 'sessions');
  if (values.store === undefined) {
    sources.set('store', {
      kind: 'default',
      note: env.AGENT_CORE_DATA_DIR ? 'AGENT_CORE_DATA_DIR/sessions' : 'the XDG data folder',
    });
  }
  return {
    values: values as CliConfig['values'],
    sources,
    store,
    userFile: { path: userPath, found: user !== undefined },
    project: { ...project, found: projectFile !== undefined },
    cwd,
    secrets: secretsOf(values),
  };
}

function environmentLayer(env: Environment): ConfigLayer {
  const config: Record<string, unknown> = {};
  const variables = new Map<string, string>();
  for (const [variable, path] of environmentKeys) {
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    let value: unknown = raw;
    if (path[0] === 'tools') value = splitList(raw);
    if (path[0] === 'context_window' || path[0] === 'worker') value = /^\d+$/.test(raw) ? Number(raw) : raw;
    setPath(config, path, value);
    variables.set(path.join('.'), variable);
  }
  if (config.store === undefined && env.AGENT_CORE_DATA_DIR) {
    config.store = join(env.AGENT_CORE_DATA_DIR, 'sessions');
    variables.set('store', 'AGENT_CORE_DATA_DIR');
  }
  const issues = checkConfigFile(config);
  if (issues.length > 0) {
    throw new ConfigFileError(
      issues.map((issue) => ({
        path: `environment ${variables.get(issue.path.join('.')) ?? issue.path.join('.')}`,
        line: undefined,
        message: issue.message,
      })),
    );
  }
  const sourceOf = (path: readonly string[]): ConfigSource => {
    for (let length = path.length; length > 0; length--) {
      const variable = variables.get(path.slice(0, length).join('.'));
      if (variable !== undefined) return { kind: 'environment', variable };
    }
    return { kind: 'environment', variable: 'unknown' };
  };
  return { config: config as ConfigFile, sourceOf };
}

function flagLayer(flags: ConfigFlags): ConfigLayer {
  const names = new Map<string, string>();
  const config: ConfigFile = {};
  const set = <Key extends keyof ConfigFile>(key: Key, value: ConfigFile[Key] | undefined, flag: string) => {
    if (value === undefined) return;
    config[key] = value;
    names.set(key, flag);
  };
  set('provider', flags.provider, '--provider');
  set('model', flags.model, '--model');
  set('orchestrator', flags.orchestrator, '--orchestrator');
  set('tools', flags.tools, '--tools');
  set('policy', flags.policy, '--policy');
  set('context_window', flags.contextWindow, '--context-window');
  set(
    'store',
    flags.store ?? (flags.dataDir === undefined ? undefined : join(flags.dataDir, 'sessions')),
    flags.store === undefined ? '--data-dir' : '--store',
  );
  set('log_level', flags.logLevel, '--log-level');
  if (flags.noSkills === true) set('skills', { enabled: false }, '--no-skills');
  set(
    'worker',
    flags.concurrency === undefined ? undefined : { concurrency: flags.concurrency },
    '--concurrency',
  );
  if (flags.mcp !== undefined && flags.mcp.length > 0) {
    config.mcp_servers = Object.fromEntries(
      flags.mcp.map((line, index) => {
        const [command = '', ...args] = splitCommand(line);
        return [flags.mcp?.length === 1 ? 'mcp' : `mcp${index + 1}`, { command, args }];
      }),
    );
    names.set('mcp_servers', '--mcp');
  }
  const issues = checkConfigFile(config);
  if (issues.length > 0) {
    throw new ConfigFileError(
      issues.map((issue) => ({
        path: `flag ${names.get(issue.path[0] as string) ?? issue.path.join('.')}`,
        line: undefined,
        message: issue.message,
      })),
    );
  }
  return { config, sourceOf: (path) => ({ kind: 'flag', flag: names.get(path[0] as string) ?? '--?' }) };
}

/** `--base-url` (and `--provider-name`) belong to the chosen provider, `openai` when none is chosen. */
function applyBaseUrlFlag(values: ConfigFile, sources: Map<string, ConfigSource>, flags: ConfigFlags): void {
  if (flags.baseUrl === undefined && flags.providerName === undefined) return;
  if (
    flags.baseUrl !== undefined &&
    (!/^[a-z][a-z0-9+.-]*:\/\//i.test(flags.baseUrl) || !URL.canParse(flags.baseUrl))
  ) {
    throw new ConfigFileError([
      {
        path: 'flag --base-url',
        line: undefined,
        message: 'must be a URL such as "http://127.0.0.1:11434/v1"',
      },
    ]);
  }
  if (values.provider === undefined && flags.baseUrl !== undefined) {
    values.provider = 'openai';
    sources.set('provider', { kind: 'flag', flag: '--base-url' });
  }
  const target = values.provider ?? 'openai';
  values.providers ??= {};
  const entry = (values.providers[target] ??= {});
  if (flags.baseUrl !== undefined) {
    entry.base_url = flags.baseUrl;
    sources.set(`providers.${target}.base_url`, { kind: 'flag', flag: '--base-url' });
  }
  if (flags.providerName !== undefined) {
    entry.name = flags.providerName;
    sources.set(`providers.${target}.name`, { kind: 'flag', flag: '--provider-name' });
  }
}

/** Every API key, header value and URL password in the configuration: text never to print. */
function secretsOf(values: ConfigFile): string[] {
  const secrets = new Set<string>();
  const fromUrl = (text: string | undefined) => {
    if (text === undefined || !URL.canParse(text)) return;
    const parsed = new URL(text);
    if (parsed.password !== '') secrets.add(decodeURIComponent(parsed.password));
    if (parsed.username !== '' && parsed.password === '') secrets.add(decodeURIComponent(parsed.username));
  };
  for (const entry of Object.values(values.providers ?? {})) {
    if (entry.api_key !== undefined) secrets.add(entry.api_key);
    fromUrl(entry.base_url);
  }
  for (const server of Object.values(values.mcp_servers ?? {})) {
    if ('url' in server) {
      fromUrl(server.url);
      for (const value of Object.values(server.headers ?? {})) secrets.add(value);
    } else {
      for (const [name, value] of Object.entries(server.env ?? {}))
        if (/key|token|secret|password|auth/i.test(name)) secrets.add(value);
    }
  }
  // A very short value would mask ordinary words; keys and passwords are longer.
  return [...secrets].filter((secret) => secret.length >= 4);
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let table = target;
  for (const key of path.slice(0, -1)) table = (table[key] ??= {}) as Record<string, unknown>;
  table[path[path.length - 1] as string] = value;
}

/** Splits a comma-separated list, dropping empty names. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Splits a command line on spaces, keeping quoted parts together. */
export function splitCommand(line: string): string[] {
  const parts: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    parts.push(match[1] ?? match[2] ?? match[3] ?? '');
  return parts;
}
