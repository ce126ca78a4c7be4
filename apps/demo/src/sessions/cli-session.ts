import { existsSync } from 'node:fs';
import type { AgentSettings } from '../agent-settings.js';
import type { AgentSession } from '../make-agent/make-agent-options.js';

/** What the CLI stores in the metadata of each session it creates: where it started, and its tool packs. */
export function sessionMetadata(settings: Pick<AgentSettings, 'config'>): Record<string, unknown> {
  return { cwd: settings.config.cwd, tools: settings.config.values.tools ?? ['basic'] };
}

/**
 * A stored session of the CLI as `makeAgentOptions` takes it: the folder it
 * was started in and the packs it was created with, unless `--tools` names
 * others now (then the packs work in the current folder). So `approve` from
 * any folder runs an approved shell command where it was asked for, with the
 * tool it was asked of. The choices of the REPL (`/model`, `/orchestrator`,
 * `/policy`) are the settings'.
 */
export function cliSession(settings: AgentSettings, metadata: Record<string, unknown>): AgentSession {
  const { config } = settings;
  const { tools: recorded, cwd } = metadata;
  const chosenNow = config.sources.get('tools')?.kind === 'flag';
  if (
    chosenNow ||
    !Array.isArray(recorded) ||
    !recorded.every((pack) => typeof pack === 'string') ||
    typeof cwd !== 'string' ||
    !existsSync(cwd)
  )
    return { cwd: config.cwd };
  return { cwd, packs: recorded };
}
