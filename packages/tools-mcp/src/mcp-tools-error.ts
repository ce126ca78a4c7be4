import { AgentError } from '@agent-core/core';

/** What went wrong with an MCP server or one of its tools. */
export type McpToolsErrorCode =
  /** The server could not be started or did not complete the MCP handshake. */
  | 'mcp_connect_failed'
  /** The tool ran and reported `isError: true`; the message is the server's text. */
  | 'mcp_tool_error'
  /** The call did not finish within `timeoutMs`; it was cancelled on the server. */
  | 'mcp_timeout'
  /** The server exited, dropped the connection, or was closed by `close()`. */
  | 'mcp_server_closed'
  /** The server refused the call or the request failed (unknown tool, bad arguments, HTTP error). */
  | 'mcp_call_failed'
  /** Listing the server's tools failed or gave names that collide. */
  | 'mcp_list_failed';

/**
 * An error from `@agent-core/tools-mcp`. Thrown from a tool's `execute` (core
 * turns it into an error result the model sees), reported in a server's status,
 * and passed to `onError`. `server` names the server; `tool` the MCP tool, if any.
 */
export class McpToolsError extends AgentError {
  declare readonly code: McpToolsErrorCode;
  readonly server: string;
  readonly tool: string | undefined;

  constructor(
    code: McpToolsErrorCode,
    message: string,
    details: { server: string; tool?: string; cause?: unknown },
  ) {
    super(code, message, details.cause === undefined ? {} : { cause: details.cause });
    this.name = 'McpToolsError';
    this.server = details.server;
    this.tool = details.tool;
  }
}
