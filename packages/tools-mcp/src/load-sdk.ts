import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';

/** The parts of `@modelcontextprotocol/sdk` this package uses. */
export interface McpSdk {
  Client: typeof Client;
  StdioClientTransport: typeof StdioClientTransport;
  StreamableHTTPClientTransport: typeof StreamableHTTPClientTransport;
  McpError: typeof McpError;
  ErrorCode: typeof ErrorCode;
  ToolListChangedNotificationSchema: typeof ToolListChangedNotificationSchema;
}

let loading: Promise<McpSdk> | undefined;

/**
 * Loads the MCP SDK on the first connect, so importing this package (and
 * registering its tool pack) loads none of it; the SDK's load time is paid
 * once, by the first server that is started.
 */
export function loadSdk(): Promise<McpSdk> {
  loading ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(
    ([client, stdio, http, types]) => ({
      Client: client.Client,
      StdioClientTransport: stdio.StdioClientTransport,
      StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
      McpError: types.McpError,
      ErrorCode: types.ErrorCode,
      ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    }),
    (error: unknown) => {
      // A failed load (a broken install) is tried again by the next connect.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
