import { policyProfileNames } from '@agent-core/core';

/** Decisions a policy rule gives. */
export type PolicyDecisionName = 'allow' | 'ask' | 'deny';
/** Risks a tool declares. */
export type RiskName = 'read' | 'write' | 'execute' | 'network';
/** The levels `log_level` and `--log-level` take. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** One entry of `[providers.<name>]`: how to reach a provider, or an OpenAI-compatible server under a name of its own. */
export interface ProviderEntry {
  /** Which provider package speaks to it: `anthropic`, `openai` or `mock`. Default: the entry's own name. */
  type?: string;
  base_url?: string;
  api_key?: string;
  /** What messages call it. Default: the host of `base_url`, else the entry's name. */
  name?: string;
  /** The model used when none is chosen. */
  model?: string;
}

/** `[aliases]`: a short name for a model, on the current provider or on a named one. */
export type AliasEntry = string | { provider?: string; model: string };

/** `[mcp_servers.<name>]`: a server started as a process, or reached at a URL. */
export type McpServerEntry =
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { url: string; headers?: Record<string, string> };

/** `[worker]`: how `agent-core worker` serves the run queue (in the database of a `postgres://` store). */
export interface WorkerEntry {
  /** Runs one worker process runs at once (`--concurrency`). Default 4. */
  concurrency?: number;
  /** How long a worker that died keeps its runs (and its sessions' leases) before another takes them. Default 30,000. */
  lease_ms?: number;
  /** How long a stopping worker (SIGTERM, Ctrl-C) lets its runs finish before handing them on. Default 30,000. */
  drain_ms?: number;
  /** The PostgreSQL schema of the queue's tables. Default `agent_core_workers`. */
  schema?: string;
}

/** `[policy]`: a profile by name with per-tool and per-risk overrides. */
export interface PolicyEntry {
  profile?: string;
  tools?: Record<string, PolicyDecisionName>;
  risk?: Partial<Record<RiskName, PolicyDecisionName>>;
}

/** `[skills]`: which Agent Skills sessions get (see `make-agent/skills-for-session.ts`). */
export interface SkillsEntry {
  /** False: no skills at all (`--no-skills`). Default true. */
  enabled?: boolean;
  /** More folders of skills, after the project's and before the user's; relative to the project (project file) or the user config folder (user file); `~/` is the home folder. */
  folders?: string[];
  /** False: leave out the user's folder (`~/.config/agent-core/skills`). Default true. */
  user?: boolean;
  /** True: a loaded skill's `allowed-tools` run without asking, for the rest of that session. Default false. */
  allowed_tools?: boolean;
}

/**
 * What a config file holds, as TOML keys (snake_case). The environment and
 * the command line are turned into the same shape, so every layer merges the same way.
 */
export interface ConfigFile {
  provider?: string;
  model?: string;
  orchestrator?: string;
  tools?: string[];
  policy?: string | PolicyEntry;
  context_window?: number;
  store?: string;
  log_level?: LogLevel;
  providers?: Record<string, ProviderEntry>;
  aliases?: Record<string, AliasEntry>;
  mcp_servers?: Record<string, McpServerEntry>;
  /** A system prompt layer per mode (the policy profile in effect: an editor's mode, `--policy`, `/policy`). */
  mode_prompts?: Record<string, string>;
  skills?: SkillsEntry;
  worker?: WorkerEntry;
}

/** One thing wrong in a config file: the dotted key and what to do. */
export interface ConfigIssue {
  path: readonly string[];
  message: string;
}

/** The levels `log_level` takes, most verbose first. */
export const logLevels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];
/** What a policy rule may answer. */
export const policyDecisions: readonly PolicyDecisionName[] = ['allow', 'ask', 'deny'];
/** The risks a per-risk policy rule may name. */
export const riskNames: readonly RiskName[] = ['read', 'write', 'execute', 'network'];
/** The provider types the CLI can build. */
export const providerTypes: readonly string[] = ['anthropic', 'openai', 'mock'];
/** The modes a `mode_prompts` entry may name: the policy profiles, which an editor offers as its modes. */
export const modeNames: readonly string[] = policyProfileNames;

type Check = (value: unknown, path: string[], issues: ConfigIssue[]) => void;

const describe = (value: unknown): string =>
  Array.isArray(value)
    ? 'an array'
    : value === null
      ? 'null'
      : typeof value === 'object'
        ? 'a table'
        : typeof value;

const isTable = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

const text: Check = (value, path, issues) => {
  if (typeof value !== 'string' || value.trim() === '')
    issues.push({ path, message: `must be a non-empty string, got ${describe(value)}` });
};

const oneOf =
  (allowed: readonly string[]): Check =>
  (value, path, issues) => {
    if (typeof value !== 'string' || !allowed.includes(value))
      issues.push({ path, message: `must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}` });
  };

const url: Check = (value, path, issues) => {
  if (typeof value !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || !URL.canParse(value))
    issues.push({ path, message: 'must be a URL such as "http://127.0.0.1:11434/v1"' });
};

const flag: Check = (value, path, issues) => {
  if (typeof value !== 'boolean')
    issues.push({ path, message: `must be true or false, got ${describe(value)}` });
};

const strings: Check = (value, path, issues) => {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    issues.push({ path, message: `must be an array of strings, got ${describe(value)}` });
};

const stringTable: Check = (value, path, issues) => {
  if (!isTable(value)) return void issues.push({ path, message: `must be a table, got ${describe(value)}` });
  for (const [key, item] of Object.entries(value))
    if (typeof item !== 'string') issues.push({ path: [...path, key], message: 'must be a string' });
};

/** A table with known keys; an unknown key is named with the closest known one. */
function table(fields: Record<string, Check>, required: readonly string[] = []): Check {
  return (value, path, issues) => {
    if (!isTable(value))
      return void issues.push({ path, message: `must be a table, got ${describe(value)}` });
    for (const [key, item] of Object.entries(value)) {
      const check = Object.hasOwn(fields, key) ? fields[key] : undefined;
      if (check === undefined) {
        const known = Object.keys(fields);
        const near = closest(key, known);
        issues.push({
          path: [...path, key],
          message: `unknown key${near === undefined ? '' : ` (did you mean '${near}'?)`}; known keys here: ${known.join(', ')}`,
        });
      } else check(item, [...path, key], issues);
    }
    for (const key of required)
      if (!Object.hasOwn(value, key)) issues.push({ path: [...path, key], message: 'is required' });
  };
}

/** A table of entries named by the user, each checked by `entry`. */
function namedEntries(entry: Check): Check {
  return (value, path, issues) => {
    if (!isTable(value))
      return void issues.push({ path, message: `must be a table, got ${describe(value)}` });
    for (const [key, item] of Object.entries(value)) entry(item, [...path, key], issues);
  };
}

const decisionTable = (keys?: readonly string[]): Check =>
  keys === undefined
    ? namedEntries(oneOf(policyDecisions))
    : table(Object.fromEntries(keys.map((key) => [key, oneOf(policyDecisions)])));

const policyTable = table({ profile: text, tools: decisionTable(), risk: decisionTable(riskNames) });

const policy: Check = (value, path, issues) =>
  typeof value === 'string' ? text(value, path, issues) : policyTable(value, path, issues);

const alias: Check = (value, path, issues) =>
  typeof value === 'string'
    ? text(value, path, issues)
    : table({ provider: text, model: text }, ['model'])(value, path, issues);

const mcpServer: Check = (value, path, issues) => {
  if (isTable(value) && 'url' in value && !('command' in value))
    return table({ url, headers: stringTable })(value, path, issues);
  table({ command: text, args: strings, env: stringTable, cwd: text }, ['command'])(value, path, issues);
};

const positiveInteger: Check = (value, path, issues) => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0)
    issues.push({ path, message: `must be a positive whole number of tokens, got ${JSON.stringify(value)}` });
};

const wholeNumber =
  (least: number, unit: string): Check =>
  (value, path, issues) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < least)
      issues.push({
        path,
        message: `must be a whole number of ${unit} of at least ${least}, got ${JSON.stringify(value)}`,
      });
  };

const schemaName: Check = (value, path, issues) => {
  if (typeof value !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,39}$/.test(value))
    issues.push({
      path,
      message: 'must be a plain schema name: letters, digits and _ (at most 40), not starting with a digit',
    });
};

const workerTable = table({
  concurrency: wholeNumber(1, 'runs'),
  lease_ms: wholeNumber(100, 'milliseconds'),
  drain_ms: wholeNumber(0, 'milliseconds'),
  schema: schemaName,
});

const configTable = table({
  provider: text,
  model: text,
  orchestrator: text,
  tools: strings,
  policy,
  context_window: positiveInteger,
  store: text,
  log_level: oneOf(logLevels),
  providers: namedEntries(
    table({ type: oneOf(providerTypes), base_url: url, api_key: text, name: text, model: text }),
  ),
  aliases: namedEntries(alias),
  mcp_servers: namedEntries(mcpServer),
  mode_prompts: table(Object.fromEntries(modeNames.map((mode) => [mode, text]))),
  skills: table({ enabled: flag, folders: strings, user: flag, allowed_tools: flag }),
  worker: workerTable,
});

/** Checks parsed TOML against what the CLI reads; an empty list means it is a valid `ConfigFile`. */
export function checkConfigFile(value: unknown): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  configTable(value, [], issues);
  return issues;
}

/** The known word within two edits of `word`, to suggest for a typo. */
export function closest(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 3;
}
