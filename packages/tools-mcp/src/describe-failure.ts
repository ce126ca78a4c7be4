import type { McpSdk } from './load-sdk.js';
import { isStdioConfig, type McpServerConfig } from './mcp-server-config.js';
import { McpToolsError } from './mcp-tools-error.js';

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  // fetch hides the useful part (ECONNREFUSED, ENOTFOUND) in its cause.
  const detail =
    typeof cause?.code === 'string'
      ? cause.code
      : typeof cause?.message === 'string'
        ? cause.message
        : undefined;
  return detail === undefined || error.message.includes(detail)
    ? error.message
    : `${error.message} (${detail})`;
}

/** A message that says why a server could not be connected and what to check. */
export function connectFailure(
  sdk: McpSdk,
  server: string,
  config: McpServerConfig,
  error: unknown,
  stderr: string,
): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (isStdioConfig(config)) {
    if (code === 'ENOENT') {
      return `MCP server '${server}' could not be started: command '${config.command}' was not found. Check the command and PATH.`;
    }
    if (code === 'EACCES') {
      return `MCP server '${server}' could not be started: command '${config.command}' is not executable.`;
    }
    if (error instanceof sdk.McpError && error.code === sdk.ErrorCode.ConnectionClosed) {
      return `MCP server '${server}' (${config.command}) exited before completing the MCP handshake.${stderr}`;
    }
  }
  if (error instanceof sdk.McpError && error.code === sdk.ErrorCode.RequestTimeout) {
    return `MCP server '${server}' did not complete the MCP handshake in time (connectTimeoutMs).${stderr}`;
  }
  const where = isStdioConfig(config) ? `(${config.command})` : `at ${String(config.url)}`;
  return `MCP server '${server}' ${where} could not be connected: ${messageOf(error)}${stderr}`;
}

/** Turns whatever a failed `tools/call` threw into an `McpToolsError` that says what happened. */
export function callFailure(
  sdk: McpSdk,
  details: {
    server: string;
    tool: string;
    error: unknown;
    timeoutMs: number;
    closedBecause: McpToolsError | undefined;
  },
): McpToolsError {
  const { server, tool, error, timeoutMs, closedBecause } = details;
  const context = { server, tool, cause: error };
  if (error instanceof McpToolsError) {
    return new McpToolsError(error.code, `The call to MCP tool '${tool}' failed: ${error.message}`, context);
  }
  if (error instanceof sdk.McpError && error.code === sdk.ErrorCode.RequestTimeout) {
    return new McpToolsError(
      'mcp_timeout',
      `MCP tool '${tool}' on server '${server}' did not answer within ${timeoutMs} ms, so the call was cancelled. Raise timeoutMs if it needs longer.`,
      context,
    );
  }
  if (
    closedBecause !== undefined ||
    (error instanceof sdk.McpError && error.code === sdk.ErrorCode.ConnectionClosed)
  ) {
    return new McpToolsError(
      'mcp_server_closed',
      `The call to MCP tool '${tool}' failed: ${closedBecause?.message ?? `MCP server '${server}' closed the connection.`}`,
      context,
    );
  }
  return new McpToolsError(
    'mcp_call_failed',
    `The call to MCP tool '${tool}' on server '${server}' failed: ${messageOf(error)}`,
    context,
  );
}
