import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * The folder the demo keeps its data in: `--data-dir`, else
 * `$AGENT_CORE_DATA_DIR`, else `$XDG_DATA_HOME/agent-core`, else
 * `~/.local/share/agent-core` (the XDG default). A relative `XDG_DATA_HOME`
 * is ignored, as the XDG specification asks.
 */
export function dataDirectory(flag: string | undefined, env: Record<string, string | undefined>): string {
  if (flag !== undefined && flag !== '') return resolve(flag);
  if (env.AGENT_CORE_DATA_DIR) return resolve(env.AGENT_CORE_DATA_DIR);
  const xdg = env.XDG_DATA_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homedir(), '.local', 'share');
  return join(base, 'agent-core');
}

/** Where the demo's `FileSessionStore` keeps sessions: `<data dir>/sessions`. */
export function sessionsDirectory(flag: string | undefined, env: Record<string, string | undefined>): string {
  return join(dataDirectory(flag, env), 'sessions');
}
