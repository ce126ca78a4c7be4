import { AgentError, ConfigError, type ToolContext, type ToolOutput } from '@agent-core/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { buildMcpTools, listAllTools } from './build-mcp-tools.js';
import { createTransport, type ServerTransport } from './create-transport.js';
import { callFailure, connectFailure } from './describe-failure.js';
import { loadSdk, type McpSdk } from './load-sdk.js';
import type { McpConnectionOptions, McpServerConfig } from './mcp-server-config.js';
import type { McpServerStatus } from './mcp-server-status.js';
import type { McpTool } from './mcp-tool.js';
import { McpToolsError } from './mcp-tools-error.js';
import { type McpCallResult, textOf, toolOutputOf } from './tool-output-of.js';

const clientInfo = { name: '@agent-core/tools-mcp', version: '0.1.0' };
const defaultTimeoutMs = 60_000;
const defaultConnectTimeoutMs = 30_000;
// How long an HTTP server gets to answer a ping after its stream broke.
const healthCheckMs = 1_000;

/** Called before a new tool list is taken; throws to refuse it. */
export type ToolListCheck = (tools: McpTool[], server: string) => void;

function checkPositive(name: string, value: number | undefined): void {
  if (value !== undefined && !(value > 0)) {
    throw new ConfigError(`MCP option ${name} is ${value}; use a positive number of milliseconds.`);
  }
}

/**
 * One connected MCP server and its tools. Made by `connectMcpServer` (or by
 * `mcpTools` for each server).
 *
 * Contract:
 * - `tools` is the current list; it is replaced (never mutated) when the server
 *   sends `notifications/tools/list_changed` and the new list was accepted.
 * - A tool's `execute` throws `McpToolsError` for an `isError` result, a
 *   timeout, a refused call, or a server that went away; calls in flight when
 *   the server exits are rejected at once.
 * - `close()` ends the child process or HTTP session; it is idempotent and never throws.
 */
export class McpServerConnection {
  /** The server's name in your config. */
  readonly name: string;
  readonly #options: McpConnectionOptions;
  readonly #transport: ServerTransport;
  readonly #sdk: McpSdk;
  readonly #client: Client;
  readonly #checkTools: ToolListCheck | undefined;
  /** Calls in flight: `abort` cancels one on the server too, `reject` only stops waiting. */
  readonly #inFlight = new Set<{ abort(reason: McpToolsError): void; reject(reason: McpToolsError): void }>();
  #state: 'connecting' | 'connected' | 'closed' = 'connecting';
  #tools: McpTool[] = [];
  #error: McpToolsError | undefined;
  #pid: number | undefined;
  #closing: Promise<void> | undefined;
  #refreshing: Promise<McpTool[]> | undefined;
  #refreshAgain = false;
  #checkingHealth = false;

  private constructor(
    sdk: McpSdk,
    name: string,
    transport: ServerTransport,
    options: McpConnectionOptions,
    checkTools: ToolListCheck | undefined,
  ) {
    this.#sdk = sdk;
    this.#client = new sdk.Client(clientInfo, { capabilities: {} });
    this.name = name;
    this.#transport = transport;
    this.#options = options;
    this.#checkTools = checkTools;
  }

  /**
   * Starts and connects a server. Prefer `connectMcpServer`; `checkTools` lets
   * `mcpTools` refuse refreshed lists that collide with another server's.
   * @internal
   */
  static async open(
    name: string,
    config: McpServerConfig,
    options: McpConnectionOptions = {},
    checkTools?: ToolListCheck,
  ): Promise<McpServerConnection> {
    checkPositive('timeoutMs', options.timeoutMs);
    checkPositive('connectTimeoutMs', options.connectTimeoutMs);
    const sdk = await loadSdk();
    const connection = new McpServerConnection(
      sdk,
      name,
      createTransport(sdk, name, config, options.onStderr),
      options,
      checkTools,
    );
    await connection.#start(config);
    return connection;
  }

  /** The server's tools as agent-core tools, current as of the last list change. */
  get tools(): McpTool[] {
    return this.#tools;
  }

  /** Where the server stands: connected or closed, tool count, pid, last error. */
  get status(): McpServerStatus {
    return {
      name: this.name,
      transport: this.#transport.kind,
      state: this.#state === 'closed' ? 'closed' : 'connected',
      toolCount: this.#tools.length,
      ...(this.#pid === undefined ? {} : { pid: this.#pid }),
      ...this.#serverInfo(),
      ...(this.#error === undefined ? {} : { error: this.#error }),
    };
  }

  /** Lists the server's tools again (as a list change does) and returns the new list. */
  refresh(): Promise<McpTool[]> {
    if (this.#refreshing !== undefined) {
      this.#refreshAgain = true;
      return this.#refreshing;
    }
    this.#refreshing = this.#refreshLoop().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /** Ends the child process (stdin closed, then SIGTERM, then SIGKILL) or the HTTP session. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= this.#closeOnce();
    return this.#closing;
  }

  async #start(config: McpServerConfig): Promise<void> {
    this.#client.onclose = () => this.#onTransportClosed();
    this.#client.onerror = (error) => this.#onTransportError(error);
    try {
      await this.#client.connect(this.#transport.transport, {
        timeout: this.#options.connectTimeoutMs ?? defaultConnectTimeoutMs,
      });
      this.#pid = this.#transport.pid();
      this.#transport.watchExit();
    } catch (error) {
      await this.#client.close().catch(() => {});
      // Let the last stderr output arrive before quoting it.
      await new Promise((resolve) => setImmediate(resolve));
      throw new McpToolsError(
        'mcp_connect_failed',
        connectFailure(this.#sdk, this.name, config, error, this.#stderr()),
        {
          server: this.name,
          cause: error,
        },
      );
    }
    this.#state = 'connected';
    const capabilities = this.#client.getServerCapabilities();
    if (capabilities?.tools?.listChanged === true) {
      this.#client.setNotificationHandler(this.#sdk.ToolListChangedNotificationSchema, () => {
        // Problems are reported through onError and the status; nobody awaits this.
        this.refresh().catch(() => {});
      });
    }
    try {
      this.#tools = capabilities?.tools === undefined ? [] : await this.#listAll();
    } catch (error) {
      await this.close();
      if (AgentError.isInstance(error)) throw error;
      throw new McpToolsError(
        'mcp_list_failed',
        `MCP server '${this.name}' connected but listing its tools failed: ${error instanceof Error ? error.message : String(error)}`,
        { server: this.name, cause: error },
      );
    }
  }

  #serverInfo(): { serverInfo?: { name: string; version: string } } {
    const info = this.#client.getServerVersion();
    return info === undefined ? {} : { serverInfo: { name: info.name, version: info.version } };
  }

  #stderr(): string {
    const tail = this.#transport.stderrTail().trim();
    return tail === '' ? '' : `\nIts stderr ended with:\n${tail.slice(-1000)}`;
  }

  async #listAll(): Promise<McpTool[]> {
    const listed = await listAllTools(this.#client, this.#options.timeoutMs ?? defaultTimeoutMs);
    return buildMcpTools(this.name, listed, this.#options, (tool, input, context) =>
      this.#call(tool, input, context),
    );
  }

  async #refreshLoop(): Promise<McpTool[]> {
    do {
      this.#refreshAgain = false;
      await this.#refreshOnce();
    } while (this.#refreshAgain && this.#state === 'connected');
    return this.#tools;
  }

  async #refreshOnce(): Promise<void> {
    if (this.#state !== 'connected') throw this.#unavailable(undefined);
    let tools: McpTool[];
    try {
      tools = await this.#listAll();
      this.#checkTools?.(tools, this.name);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const problem = new McpToolsError(
        'mcp_list_failed',
        `MCP server '${this.name}' changed its tools, but the new list was refused; the previous tools stay. ${message}`,
        { server: this.name, cause: error },
      );
      this.#error = problem;
      this.#report(problem);
      throw problem;
    }
    this.#tools = tools;
    this.#error = undefined;
    this.#options.onToolsChanged?.(tools, this.name);
  }

  async #call(tool: string, input: Record<string, unknown>, context: ToolContext): Promise<ToolOutput> {
    if (this.#state !== 'connected') throw this.#unavailable(tool);
    let rejectLost: (reason: McpToolsError) => void = () => {};
    const lost = new Promise<never>((_, reject) => {
      rejectLost = reject;
    });
    const cancel = new AbortController();
    const call = { abort: (reason: McpToolsError) => cancel.abort(reason), reject: rejectLost };
    this.#inFlight.add(call);
    let result: McpCallResult;
    try {
      result = await Promise.race([
        this.#client.callTool({ name: tool, arguments: input }, undefined, {
          signal: AbortSignal.any([context.signal, cancel.signal]),
          timeout: this.#options.timeoutMs ?? defaultTimeoutMs,
        }),
        lost,
      ]);
    } catch (error) {
      // The SDK wraps an abort reason in a timeout McpError; give back the real reason.
      if (context.signal.aborted) throw context.signal.reason ?? error;
      throw callFailure(this.#sdk, {
        server: this.name,
        tool,
        error: cancel.signal.aborted ? cancel.signal.reason : error,
        timeoutMs: this.#options.timeoutMs ?? defaultTimeoutMs,
        closedBecause: this.#error,
      });
    } finally {
      this.#inFlight.delete(call);
    }
    if (result.isError === true) {
      throw new McpToolsError(
        'mcp_tool_error',
        textOf(result) || `MCP tool '${tool}' on server '${this.name}' reported an error without a message.`,
        { server: this.name, tool },
      );
    }
    return toolOutputOf(result);
  }

  #unavailable(tool: string | undefined): McpToolsError {
    const why = this.#error?.message ?? 'it was closed.';
    return new McpToolsError(
      'mcp_server_closed',
      `MCP server '${this.name}' is not connected${tool === undefined ? '' : `, so tool '${tool}' cannot be called`}: ${why}`,
      { server: this.name, ...(tool === undefined ? {} : { tool }), cause: this.#error },
    );
  }

  #report(error: McpToolsError): void {
    try {
      this.#options.onError?.(error);
    } catch {
      // A throwing listener must not break the connection's bookkeeping.
    }
  }

  /** The server went away on its own: reject calls in flight at once and report it. */
  #lost(reason: McpToolsError): void {
    if (this.#state !== 'connected') return;
    this.#state = 'closed';
    this.#error = reason;
    // The server is gone: no cancellation to send, just stop waiting.
    for (const call of this.#inFlight) call.reject(reason);
    this.#inFlight.clear();
    this.#report(reason);
    this.#client.close().catch(() => {});
  }

  #onTransportClosed(): void {
    if (this.#state !== 'connected') return;
    const what = this.#transport.kind === 'stdio' ? 'its process exited' : 'the connection closed';
    this.#lost(
      new McpToolsError('mcp_server_closed', `MCP server '${this.name}' stopped: ${what}.${this.#stderr()}`, {
        server: this.name,
      }),
    );
  }

  #onTransportError(error: Error): void {
    // A stdio server that dies is seen by its close event; an HTTP server has
    // none, so a broken stream is checked with a ping: no answer means it is gone.
    if (this.#state !== 'connected' || this.#transport.kind !== 'http' || this.#checkingHealth) return;
    this.#checkingHealth = true;
    this.#client
      .ping({ timeout: healthCheckMs })
      .catch((pingError: unknown) => {
        const detail = pingError instanceof Error ? pingError.message : String(pingError);
        this.#lost(
          new McpToolsError(
            'mcp_server_closed',
            `MCP server '${this.name}' stopped answering (${error.message}; ping: ${detail}).`,
            { server: this.name, cause: error },
          ),
        );
      })
      .finally(() => {
        this.#checkingHealth = false;
      });
  }

  async #closeOnce(): Promise<void> {
    const wasConnected = this.#state === 'connected';
    this.#state = 'closed';
    if (wasConnected && this.#inFlight.size > 0) {
      const reason = new McpToolsError('mcp_server_closed', `MCP server '${this.name}' was closed.`, {
        server: this.name,
      });
      // Cancelled on the server too, so it can finish and exit when its stdin closes.
      for (const call of this.#inFlight) call.abort(reason);
      this.#inFlight.clear();
    }
    if (wasConnected) await this.#transport.endSession();
    const closing = this.#client.close().catch(() => {});
    // Done once the child process exited, without waiting for pipes it left open.
    const exited = this.#transport.exited();
    await (exited === undefined ? closing : Promise.race([closing, exited]));
  }
}
