import {
  type AnyTool,
  ConfigError,
  getOrchestrator,
  listOrchestrators,
  listToolPacks,
  type Orchestrator,
  ToolRegistry,
} from '@agent-core/core';
import type { FsToolsOptions } from '@agent-core/tools-fs';
import type { ShellToolOptions } from '@agent-core/tools-shell';
import type { McpServerEntry } from '../config/config-file.js';
import { checkKnown, importPlugin, loadableNames } from './import-plugin.js';

const orchestratorPackages: Record<string, string> = {
  agentic: '@agent-core/orchestrator-agentic',
  react: '@agent-core/orchestrator-react',
  'plan-execute': '@agent-core/orchestrator-plan-execute',
};
const toolPackages: Record<string, string> = {
  basic: '@agent-core/tools-basic',
  fs: '@agent-core/tools-fs',
  shell: '@agent-core/tools-shell',
};

/** Every orchestrator name the CLI can load. */
export function orchestratorNames(): string[] {
  return loadableNames([], orchestratorPackages, listOrchestrators());
}

/** Every tool pack name the CLI can load (MCP servers are configured apart). */
export function toolPackNames(): string[] {
  return loadableNames([], toolPackages, listToolPacks());
}

/** The orchestrator registered under `name`, importing its package first. */
export async function resolveOrchestrator(name: string, where = '--orchestrator'): Promise<Orchestrator> {
  checkKnown('orchestrator', where, name, orchestratorNames());
  if (!listOrchestrators().includes(name))
    await importPlugin(name, orchestratorPackages[name], 'orchestrator');
  return getOrchestrator(name);
}

/** Tools and where each came from (`pack basic`, `MCP server files`), for `/tools`. */
export interface ToolSet {
  tools: AnyTool[];
  sources: Map<string, string>;
}

/** Options a surface gives the packs beyond their folder: an editor's file operations and terminal runner. */
export interface PackOptions {
  fs?: Omit<FsToolsOptions, 'root'>;
  shell?: Omit<ShellToolOptions, 'cwd'>;
}

/** The tools of the named packs; `fs` and `shell` work inside `workspace`. */
export async function resolveTools(
  packs: readonly string[],
  workspace: string,
  where = '--tools',
  packOptions: PackOptions = {},
): Promise<ToolSet> {
  const known = toolPackNames();
  for (const pack of packs) {
    if (pack === 'mcp')
      throw new ConfigError(
        "The 'mcp' tools come from a server: use --mcp '<command>' or [mcp_servers] in the config file.",
      );
    checkKnown('tool pack', where, pack, known);
  }
  for (const pack of packs) await importPlugin(pack, toolPackages[pack], 'tool pack');
  const options = {
    fs: { ...packOptions.fs, root: workspace },
    shell: { ...packOptions.shell, cwd: workspace },
  };
  const sources = new Map<string, string>();
  const tools: AnyTool[] = [];
  const registry = new ToolRegistry();
  for (const pack of packs) {
    for (const tool of registry.resolvePacks([pack], options)) {
      tools.push(tool);
      sources.set(tool.name, `pack ${pack}`);
    }
  }
  return { tools, sources };
}

/** The MCP servers' tools, the servers that failed, and how to stop them all. */
export interface McpConnection extends ToolSet {
  failures: string[];
  close(): Promise<void>;
}

/**
 * Connects the configured MCP servers (the SDK loads only when there is one).
 * A server that fails to start is reported in `failures`; the others still work.
 */
export async function connectMcp(servers: Readonly<Record<string, McpServerEntry>>): Promise<McpConnection> {
  const names = Object.keys(servers);
  if (names.length === 0) return { tools: [], sources: new Map(), failures: [], close: async () => {} };
  await importPlugin('mcp', '@agent-core/tools-mcp', 'tool pack');
  const { mcpTools } = (await import('@agent-core/tools-mcp')) as typeof import('@agent-core/tools-mcp');
  const mcp = await mcpTools({ servers: servers as Parameters<typeof mcpTools>[0]['servers'] });
  const failures: string[] = [];
  for (const status of Object.values(mcp.servers)) {
    if (status.state === 'failed')
      failures.push(`MCP server '${status.name}' failed: ${status.error?.message}`);
  }
  const sources = new Map<string, string>();
  for (const tool of mcp.tools) sources.set(tool.name, `MCP server ${tool.mcp.server}`);
  return { tools: mcp.tools, sources, failures, close: () => mcp.close() };
}
