import { existsSync } from 'node:fs';
import type { AgentSettings } from '../agent-settings.js';
import { resolveTools, type ToolSet } from '../plugins/resolve-tools.js';

/** What the CLI stores in the metadata of each session it creates: where it started, and its tool packs. */
export function sessionMetadata(settings: AgentSettings): Record<string, unknown> {
  return { cwd: settings.config.cwd, tools: settings.packs };
}

/**
 * The tools of a stored session: the packs it was created with, working in
 * the folder it was started in, unless `--tools` names others. So `approve`
 * from any folder runs an approved shell command where it was asked for, and
 * with the tool it was asked of; the MCP servers' tools come from the
 * configuration as it is now.
 */
export async function sessionTools(
  settings: AgentSettings,
  metadata: Record<string, unknown>,
): Promise<ToolSet> {
  const { tools: recorded, cwd } = metadata;
  const chosenNow = settings.config.sources.get('tools')?.kind === 'flag';
  if (chosenNow || !Array.isArray(recorded) || !recorded.every((pack) => typeof pack === 'string'))
    return settings.configTools;
  if (typeof cwd !== 'string' || !existsSync(cwd)) return settings.configTools;
  if (cwd === settings.config.cwd && recorded.join(',') === settings.packs.join(','))
    return settings.configTools;
  const packTools = await resolveTools(recorded, cwd, 'the tools the session was created with');
  return {
    tools: [...packTools.tools, ...settings.mcpTools.tools],
    sources: new Map([...packTools.sources, ...settings.mcpTools.sources]),
  };
}
