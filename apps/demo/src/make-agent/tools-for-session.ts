import type { AgentSettings } from '../agent-settings.js';
import type { McpServerEntry } from '../config/config-file.js';
import { describeSource } from '../config/config-layers.js';
import { connectMcp, type PackOptions, resolveTools, type ToolSet } from '../plugins/resolve-tools.js';

/** The tools of one session, where each comes from, and how to close what the session opened. */
export interface SessionToolSet extends ToolSet {
  close(): Promise<void>;
}

/** What decides a session's tools. */
export interface SessionToolsRequest {
  cwd: string;
  packs?: readonly string[];
  defaultPacks?: readonly string[];
  packOptions?: PackOptions;
  mcpServers?: Readonly<Record<string, McpServerEntry>>;
}

/**
 * A session's tools, in order: its packs working in its folder (the
 * session's own, else the configuration's `tools`, else the surface's
 * default), the configuration's MCP servers (connected once per process and
 * shared), then the surface's own MCP servers (an editor's), connected for
 * this session and closed by `close()`. A server that fails to start is a
 * warning; the others still serve.
 */
export async function toolsForSession(
  settings: AgentSettings,
  request: SessionToolsRequest,
): Promise<SessionToolSet> {
  const { config } = settings;
  const configured = config.values.tools;
  const packs = request.packs ?? configured ?? request.defaultPacks ?? ['basic'];
  const where =
    request.packs !== undefined
      ? 'the tools the session was created with'
      : configured !== undefined
        ? describeSource(config.sources.get('tools') ?? { kind: 'default' })
        : 'the default tools';
  const [packTools, shared] = await Promise.all([
    resolveTools(packs, request.cwd, where, request.packOptions),
    settings.mcp(),
  ]);
  // A server of the session's own named like one of the configuration's keeps its tools apart.
  const own: Record<string, McpServerEntry> = {};
  for (const [name, server] of Object.entries(request.mcpServers ?? {}))
    own[name in (config.values.mcp_servers ?? {}) ? `editor_${name}` : name] = server;
  const session = await connectMcp(own);
  for (const failure of session.failures) settings.warn(failure);
  return {
    tools: [...packTools.tools, ...shared.tools, ...session.tools],
    sources: new Map([...packTools.sources, ...shared.sources, ...session.sources]),
    close: () => session.close(),
  };
}
