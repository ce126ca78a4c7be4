import type { Tool } from '@agent-core/core';

/** The hints an MCP server may give about a tool. Untrusted unless you trust the server. */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** An MCP tool as its server described it. */
export interface McpToolInfo {
  /** The name of the server in your config. */
  server: string;
  /** The tool's name on the server (before prefixing and sanitizing). */
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: McpToolAnnotations;
}

/** An agent-core tool that calls an MCP tool; `mcp` says which one. */
export interface McpTool extends Tool {
  readonly mcp: Readonly<McpToolInfo>;
}
