import type { AcpSessionContext } from '@agent-core/acp';
import { type AnyTool, ToolRegistry } from '@agent-core/core';
import { fsTools } from '@agent-core/tools-fs';
import type { McpServerConfig } from '@agent-core/tools-mcp';
import { shellTool } from '@agent-core/tools-shell';
import { clientFileOperations } from './client-file-operations.js';
import { terminalRunner } from './terminal-runner.js';

/** The tools of one editor session, and how to close what they opened. */
export interface SessionTools {
  tools: AnyTool[];
  close(): Promise<void>;
}

/**
 * The demo's tools for a session: calculator and clock, the fs tools and the
 * shell inside the session's cwd (through the editor's file system and
 * terminal when it declared them), and the tools of the MCP servers the editor
 * passed, closed with the session.
 */
export async function sessionTools(
  context: AcpSessionContext,
  warn: (message: string) => void,
): Promise<SessionTools> {
  const { client, cwd } = context;
  const tools: AnyTool[] = [
    ...new ToolRegistry().resolvePacks(['basic']),
    ...fsTools({ root: cwd, operations: clientFileOperations(client) }),
    shellTool({ cwd, ...(client.capabilities.terminal === true ? { runner: terminalRunner(client) } : {}) }),
  ];
  if (context.mcpServers.length === 0) return { tools, close: async () => {} };
  const { mcpTools } = await import('@agent-core/tools-mcp');
  const servers: Record<string, McpServerConfig> = {};
  for (const server of context.mcpServers) {
    const name = server.name.replace(/[^A-Za-z0-9_-]/g, '_') || 'mcp';
    if ('type' in server) {
      servers[name] = {
        url: server.url,
        headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])),
      };
    } else {
      servers[name] = {
        command: server.command,
        args: server.args,
        env: Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])),
        cwd,
      };
    }
  }
  const mcp = await mcpTools({ servers });
  for (const status of Object.values(mcp.servers))
    if (status.state === 'failed') warn(`MCP server '${status.name}' failed: ${status.error?.message}`);
  return { tools: [...tools, ...mcp.tools], close: () => mcp.close() };
}
