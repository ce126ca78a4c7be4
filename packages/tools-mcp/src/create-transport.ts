import type { ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ConfigError } from '@agent-core/core';
import type { McpSdk } from './load-sdk.js';
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
  /** Call once connected: starts watching the child process (stdio) for its exit. */
  watchExit(): void;
  /**
   * Resolves when the child process has exited (stdio, once watched); undefined
   * when there is nothing to watch (HTTP, or a process the SDK never started).
   */
  exited(): Promise<void> | undefined;
}

/** Builds the SDK transport for a server config. Throws `ConfigError` for a config that is neither. */
export function createTransport(
  sdk: McpSdk,
  server: string,
  config: McpServerConfig,
  onStderr: ((text: string, server: string) => void) | undefined,
): ServerTransport {
  if (isStdioConfig(config)) {
    const transport = new sdk.StdioClientTransport({
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
    let exited: Promise<void> | undefined;
    return {
      transport,
      kind: 'stdio',
      pid: () => transport.pid ?? undefined,
      stderrTail: () => tail,
      endSession: async () => {},
      watchExit: () => {
        // The SDK's close() waits for the process's 'close' event, which also
        // waits for every holder of its stdio pipes (a server's own children)
        // and so can sit out its whole grace period after the server exited.
        // Its 'exit' event says the server itself is gone: close() returns then.
        const child = (transport as unknown as { _process?: ChildProcess })._process;
        if (child === undefined || exited !== undefined) return;
        exited =
          child.exitCode !== null || child.signalCode !== null
            ? Promise.resolve()
            : new Promise((resolve) => child.once('exit', () => resolve()));
      },
      exited: () => exited,
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
  const transport = new sdk.StreamableHTTPClientTransport(parsed, {
    ...(config.headers === undefined ? {} : { requestInit: { headers: config.headers } }),
    ...(config.fetch === undefined ? {} : { fetch: config.fetch }),
  });
  return {
    transport,
    kind: 'http',
    pid: () => undefined,
    stderrTail: () => '',
    watchExit: () => {},
    exited: () => undefined,
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
