/**
 * The variables a command inherits from the agent's environment by default:
 * enough for programs to find each other, a home and a locale, and nothing
 * that usually holds a secret (API keys and tokens stay out).
 */
export const inheritedEnvironmentNames: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_COLLATE',
  'LC_MESSAGES',
  'LC_NUMERIC',
  'LC_TIME',
  'TERM',
  'TZ',
  'TMPDIR',
];

const fallbackPath = '/usr/local/bin:/usr/bin:/bin';

/** Options for `buildShellEnvironment`. */
export interface ShellEnvironmentOptions {
  /** Variables set over the inherited ones; `undefined` removes one. */
  env?: Record<string, string | undefined>;
  /** Pass the whole parent environment instead of the minimal set. */
  inheritEnv?: boolean;
  /** The environment to inherit from. Default: `process.env`, read at call time. */
  parent?: Record<string, string | undefined>;
  /** Becomes `PWD`. */
  cwd: string;
}

/**
 * The environment of one command: the minimal inherited set (or everything
 * with `inheritEnv`), then `PWD`, then `env` on top.
 */
export function buildShellEnvironment(options: ShellEnvironmentOptions): Record<string, string> {
  const parent = options.parent ?? process.env;
  const environment: Record<string, string> = {};
  const names = options.inheritEnv === true ? Object.keys(parent) : inheritedEnvironmentNames;
  for (const name of names) {
    const value = parent[name];
    if (value !== undefined) environment[name] = value;
  }
  environment.PATH ??= fallbackPath;
  environment.PWD = options.cwd;
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete environment[name];
    else environment[name] = value;
  }
  return environment;
}
