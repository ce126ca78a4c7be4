import type { McpConnectionOptions, McpServerConfig } from './mcp-server-config.js';
import { McpServerConnection } from './mcp-server-connection.js';

/**
 * Connects one MCP server and returns its connection, whose `tools` are ready
 * to give an agent. Rejects with `McpToolsError` (`mcp_connect_failed`) when
 * the server cannot be started or connected, and with `ConfigError` for a bad
 * config or tool names that collide.
 *
 * @example
 * const files = await connectMcpServer('files', { command: 'node', args: ['server.js'] });
 * const agent = new Agent({ provider, model, tools: files.tools });
 * await files.close();
 */
export function connectMcpServer(
  name: string,
  config: McpServerConfig,
  options?: McpConnectionOptions,
): Promise<McpServerConnection> {
  return McpServerConnection.open(name, config, options);
}
