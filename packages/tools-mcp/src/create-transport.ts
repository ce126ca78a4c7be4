import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ConfigError } from '@agent-core/core';
import { isStdioConfig, type McpServerConfig } from './mcp-server-config.js';

const stderrKept = 4000;
const terminateWaitMs = 2000;

/** A transport plus what the connection needs to know about it. */
export interface ServerTransport {
  transport: Transport;
  kind: 'stdio' | 'http';
  /** The child process id (stdio, once started). */
  pid(): number | undefined;
  /** The last few thousand characters the server wrote on stderr (stdio). */
  stderrTail(): string;
  /** Ends the HTTP session (DELETE); a no-op for stdio. Never throws. */
  endSession(): Promise<void>;
}

/** Builds the SDK transport for a server config. Throws `ConfigError` for a config that is neither. */
export function createTransport(
  server: string,
  config: McpServerConfig,
  onStderr: ((text: string, server: string) => void) | undefined,
): ServerTransport {
  if (isStdioConfig(config)) {
    const transport = new StdioClientTransport({
      command: config.command,
      ...(config.args === undefined ? {} : { args: config.args }),
      ...(config.env === undefined ? {} : { env: config.env }),
      ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
      // Piped, not inherited: a server's logs must not mix into our output (ACP speaks on stdout).
      stderr: 'pipe',
    });
    let tail = '';
    // The SDK hands out the stderr stream before start(), so nothing written early is lost.
    transport.stderr?.on('data', (chunk: Buffer | string) => {
      const text = chunk.toString();
      tail = (tail + text).slice(-stderrKept);
      onStderr?.(text, server);
    });
    return {
      transport,
      kind: 'stdio',
      pid: () => transport.pid ?? undefined,
      stderrTail: () => tail,
      endSession: async () => {},
    };
  }
  const url = (config as { url?: unknown }).url;
  if (!(typeof url === 'string' || url instanceof URL)) {
    throw new ConfigError(
      `MCP server '${server}' needs either a 'command' (stdio) or a 'url' (streamable HTTP).`,
    );
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new ConfigError(`MCP server '${server}' has an invalid url '${String(url)}'.`, { cause: error });
  }
  const transport = new StreamableHTTPClientTransport(parsed, {
    ...(config.headers === undefined ? {} : { requestInit: { headers: config.headers } }),
    ...(config.fetch === undefined ? {} : { fetch: config.fetch }),
  });
  return {
    transport,
    kind: 'http',
    pid: () => undefined,
    stderrTail: () => '',
    endSession: async () => {
      let timer: NodeJS.Timeout | undefined;
      // A server that hangs must not hold close(): give the DELETE a short while.
      const wait = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, terminateWaitMs);
      });
      await Promise.race([transport.terminateSession().catch(() => {}), wait]);
      clearTimeout(timer);
    },
  };
}
