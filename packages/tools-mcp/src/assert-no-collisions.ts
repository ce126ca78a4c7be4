import { ConfigError } from '@agent-core/core';
import type { McpTool } from './mcp-tool.js';

/**
 * Throws `ConfigError` naming both MCP tools when two of them map to the same
 * agent tool name, so one never silently replaces the other.
 */
export function assertNoCollisions(tools: readonly McpTool[]): void {
  const seen = new Map<string, McpTool>();
  for (const tool of tools) {
    const first = seen.get(tool.name);
    if (first !== undefined) {
      throw new ConfigError(
        `MCP tools '${first.mcp.name}' (server '${first.mcp.server}') and '${tool.mcp.name}' (server '${tool.mcp.server}') both map to the agent tool name '${tool.name}'. Rename a server or pass a prefix function that tells them apart.`,
      );
    }
    seen.set(tool.name, tool);
  }
}
