import { ConfigError } from '@agent-core/core';
import { assertNoCollisions } from './assert-no-collisions.js';
import { McpServerConnection } from './mcp-server-connection.js';
import { isStdioConfig, type McpConnectionOptions, type McpServerConfig } from './mcp-server-config.js';
import type { McpServerStatus } from './mcp-server-status.js';
import type { McpTool } from './mcp-tool.js';
import { McpToolsError } from './mcp-tools-error.js';

/** Options for `mcpTools`: the servers by name, plus options shared by all of them. */
export interface McpToolsOptions extends McpConnectionOptions {
  /** The servers, by name; the name is the default prefix of their tools (`<server>__<tool>`). */
  servers: Record<string, McpServerConfig>;
}

/** The tools of several MCP servers, and the handle to close them. */
export interface McpTools {
  /** The tools of every connected server, in config order. A new array after each list change. */
  readonly tools: McpTool[];
  /** Each server's status, by name, failed ones included. */
  readonly servers: Record<string, McpServerStatus>;
  /** Ends every child process and HTTP session. Idempotent; never throws. */
  close(): Promise<void>;
}

function failedStatus(name: string, config: McpServerConfig, error: McpToolsError): McpServerStatus {
  return { name, transport: isStdioConfig(config) ? 'stdio' : 'http', state: 'failed', toolCount: 0, error };
}

/**
 * Connects MCP servers (stdio or streamable HTTP) in parallel and gives their
 * tools as agent-core tools, named `<server>__<tool>`. A server that cannot
 * start is reported in `servers` (state `failed`) and to `onError`; the others
 * still work. Rejects only for configuration mistakes (`ConfigError`): a bad
 * server config, bad options, or two tools that map to the same name.
 *
 * @example
 * const mcp = await mcpTools({ servers: { files: { command: 'node', args: ['server.js'] } } });
 * const agent = new Agent({ provider, model, tools: mcp.tools });
 * try { await agent.prompt('List the files').result(); } finally { await mcp.close(); }
 */
export async function mcpTools(options: McpToolsOptions): Promise<McpTools> {
  const servers = options?.servers;
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new ConfigError(
      'mcpTools needs { servers: { name: { command, args } | { url } } }: an object of MCP servers by name.',
    );
  }
  const names = Object.keys(servers);
  const connections = new Map<string, McpServerConnection>();
  let tools: McpTool[] = [];
  const collect = () => {
    // Config order, whatever order the servers connected in.
    tools = names.flatMap((name) => connections.get(name)?.tools ?? []);
  };
  const checkTools = (candidate: McpTool[], server: string) => {
    const others = names
      .filter((name) => name !== server)
      .flatMap((name) => connections.get(name)?.tools ?? []);
    assertNoCollisions([...others, ...candidate]);
  };
  const connectionOptions: McpConnectionOptions = {
    ...options,
    onToolsChanged: (_serverTools, server) => {
      collect();
      options.onToolsChanged?.(tools, server);
    },
  };

  const settled = await Promise.allSettled(
    names.map((name) => McpServerConnection.open(name, servers[name]!, connectionOptions, checkTools)),
  );
  const failures = new Map<string, McpToolsError>();
  let mistake: unknown;
  settled.forEach((outcome, index) => {
    const name = names[index]!;
    if (outcome.status === 'fulfilled') connections.set(name, outcome.value);
    else if (outcome.reason instanceof McpToolsError) failures.set(name, outcome.reason);
    else mistake ??= outcome.reason;
  });
  const closeAll = async () => {
    await Promise.all([...connections.values()].map((connection) => connection.close()));
  };
  if (mistake === undefined) {
    try {
      assertNoCollisions(names.flatMap((name) => connections.get(name)?.tools ?? []));
    } catch (error) {
      mistake = error;
    }
  }
  if (mistake !== undefined) {
    await closeAll();
    throw mistake;
  }
  collect();
  for (const error of failures.values()) {
    try {
      options.onError?.(error);
    } catch {
      // A throwing listener must not lose the servers that did connect.
    }
  }

  let closing: Promise<void> | undefined;
  return {
    get tools() {
      return tools;
    },
    get servers() {
      const status: Record<string, McpServerStatus> = {};
      for (const name of names) {
        const failure = failures.get(name);
        status[name] =
          failure !== undefined ? failedStatus(name, servers[name]!, failure) : connections.get(name)!.status;
      }
      return status;
    },
    close() {
      closing ??= closeAll();
      return closing;
    },
  };
}
