import './register.js';

export { connectMcpServer } from './connect-mcp-server.js';
export { McpServerConnection } from './mcp-server-connection.js';
export { mcpTools } from './mcp-tools.js';
export type { McpTools, McpToolsOptions } from './mcp-tools.js';
export { mcpToolPack } from './mcp-tool-pack.js';
export { McpToolsError } from './mcp-tools-error.js';
export type { McpToolsErrorCode } from './mcp-tools-error.js';
export { defaultToolName, safeToolName } from './safe-tool-name.js';
export type {
  McpConnectionOptions,
  McpHttpServerConfig,
  McpServerConfig,
  McpStdioServerConfig,
} from './mcp-server-config.js';
export type { McpServerStatus } from './mcp-server-status.js';
export type { McpTool, McpToolAnnotations, McpToolInfo } from './mcp-tool.js';
