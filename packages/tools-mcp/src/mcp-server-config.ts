import type { ToolRisk } from '@agent-core/core';
import type { McpToolsError } from './mcp-tools-error.js';
import type { McpTool, McpToolInfo } from './mcp-tool.js';

/**
 * A server started as a child process that speaks MCP over its stdin and
 * stdout. The child gets a minimal environment (HOME, PATH, SHELL, TERM, USER,
 * LOGNAME) plus `env`, never the whole `process.env`, so secrets are passed on purpose.
 */
export interface McpStdioServerConfig {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** A server reached over MCP's streamable HTTP transport. */
export interface McpHttpServerConfig {
  url: string | URL;
  /** Sent with every request, e.g. `{ authorization: 'Bearer ...' }`. */
  headers?: Record<string, string>;
  /** A custom fetch (proxies, tests); defaults to the global `fetch`. */
  fetch?: typeof fetch;
}

/** How to reach one MCP server: a `command` to spawn or a `url` to call. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** Options for one server connection; `mcpTools` takes the same ones for all its servers. */
export interface McpConnectionOptions {
  /**
   * The agent tool name for an MCP tool, before it is made safe with
   * `safeToolName`. Default: `<server>__<tool>`.
   */
  prefix?: (server: string, tool: string) => string;
  /** How long one tool call may take before it is cancelled, in ms. Default 60 000. */
  timeoutMs?: number;
  /** How long starting a server and the MCP handshake may take, in ms. Default 30 000. */
  connectTimeoutMs?: number;
  /**
   * The `risk` given to each tool, for policies. Default `'execute'`: MCP tool
   * annotations are hints from the server, so trusting them is your choice.
   */
  risk?: ToolRisk | ((tool: McpToolInfo) => ToolRisk);
  /** Called after the server's tool list changed and was listed again, with the whole current list. */
  onToolsChanged?: (tools: McpTool[], server: string) => void;
  /** Called for problems after connecting: a server that exits, a list refresh that fails or collides. */
  onError?: (error: McpToolsError) => void;
  /** Called with what a stdio server writes on stderr (it is also kept for error messages). */
  onStderr?: (text: string, server: string) => void;
}

/** True when the config names a command to spawn (stdio) rather than a URL. */
export function isStdioConfig(config: McpServerConfig): config is McpStdioServerConfig {
  return typeof (config as McpStdioServerConfig).command === 'string';
}
