import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/** The environment the paths are read from (`process.env`, or a test's own). */
export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The XDG base directory of one kind: `$XDG_<KIND>_HOME` when it is an
 * absolute path (the specification says to ignore a relative one), else its
 * default under the home directory. The same rule on every platform, so the
 * documented `~/.config/agent-core/config.toml` is where the file is on macOS too.
 */
function xdgBase(env: Environment, variable: string, fallback: readonly string[]): string {
  const value = env[variable];
  return value !== undefined && isAbsolute(value) ? value : join(env.HOME || homedir(), ...fallback);
}

/** `$XDG_CONFIG_HOME/agent-core` (default `~/.config/agent-core`). */
export function configDirectory(env: Environment): string {
  return join(xdgBase(env, 'XDG_CONFIG_HOME', ['.config']), 'agent-core');
}

/** The user config file: `$AGENT_CORE_CONFIG` when set, else `<config dir>/config.toml`. */
export function userConfigFile(env: Environment): string {
  const chosen = env.AGENT_CORE_CONFIG;
  return chosen !== undefined && chosen !== '' ? chosen : join(configDirectory(env), 'config.toml');
}

/**
 * The folder the CLI keeps its data in: `$AGENT_CORE_DATA_DIR`, else
 * `$XDG_DATA_HOME/agent-core` (default `~/.local/share/agent-core`).
 */
export function dataDirectory(env: Environment): string {
  if (env.AGENT_CORE_DATA_DIR) return env.AGENT_CORE_DATA_DIR;
  return join(xdgBase(env, 'XDG_DATA_HOME', ['.local', 'share']), 'agent-core');
}

/** Where the REPL keeps state between runs, such as its input history: `$XDG_STATE_HOME/agent-core`. */
export function stateDirectory(env: Environment): string {
  return join(xdgBase(env, 'XDG_STATE_HOME', ['.local', 'state']), 'agent-core');
}
