import { type AnyTool, ConfigError } from '@agent-core/core';
import type { McpTools } from './mcp-tools.js';

function isMcpTools(value: unknown): value is McpTools {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as McpTools).tools) &&
    typeof (value as McpTools).close === 'function'
  );
}

/**
 * The factory of the `mcp` tool pack. Connecting to servers is async and a
 * pack factory is not, so the pack takes servers that are already connected:
 * `{ connection: await mcpTools(...) }`. Without one it throws a `ConfigError`
 * that says so.
 *
 * @example
 * const mcp = await mcpTools({ servers });
 * const tools = new ToolRegistry().resolvePacks(['fs', 'mcp'], { mcp: { connection: mcp } });
 */
export function mcpToolPack(options?: Record<string, unknown>): AnyTool[] {
  const connection = options?.connection;
  if (!isMcpTools(connection)) {
    throw new ConfigError(
      "The 'mcp' tool pack needs connected servers, and connecting is async: run `const mcp = await mcpTools({ servers })`, then pass its tools (`tools: mcp.tools`) or the pack options `{ mcp: { connection: mcp } }`.",
    );
  }
  return [...connection.tools];
}
