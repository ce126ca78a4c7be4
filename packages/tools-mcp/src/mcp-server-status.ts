import type { McpToolsError } from './mcp-tools-error.js';

/** Where one server stands. */
export interface McpServerStatus {
  /** The server's name in your config. */
  name: string;
  transport: 'stdio' | 'http';
  /**
   * `connected`: its tools work. `failed`: it never connected (see `error`).
   * `closed`: it exited, dropped the connection, or `close()` was called.
   */
  state: 'connected' | 'failed' | 'closed';
  /** How many tools it gives the agent now. */
  toolCount: number;
  /** The child process id, for a stdio server that was started. */
  pid?: number;
  /** What the server says it is, from the handshake. */
  serverInfo?: { name: string; version: string };
  /** Why it failed or closed, or the last list refresh problem. */
  error?: McpToolsError;
}
