import type {
  AuthMethod,
  AvailableCommand,
  ClientCapabilities,
  CreateTerminalRequest,
  McpServer,
  Stream,
  TerminalHandle,
} from '@agentclientprotocol/sdk';
import type {
  Logger,
  PolicyProfileName,
  Provider,
  SessionAgentOptions,
  SessionManager,
  SessionStore,
} from '@agent-core/core';
import type { AcpSessionConfig } from './session-record.js';

/**
 * The editor, as a session's agent may use it: what it declared in
 * `initialize`, and its file system and terminals. Each method throws a clear
 * error when the editor did not declare the capability; check `capabilities` first.
 */
export interface AcpClientAccess {
  readonly capabilities: ClientCapabilities;
  /** Reads a text file as the editor has it, unsaved changes included (`fs/read_text_file`). */
  readTextFile(path: string, options?: { line?: number; limit?: number }): Promise<string>;
  /** Writes a text file through the editor (`fs/write_text_file`), which shows the change. */
  writeTextFile(path: string, content: string): Promise<void>;
  /** Starts a command in an editor terminal (`terminal/create`); release the handle when done. */
  createTerminal(request: Omit<CreateTerminalRequest, 'sessionId'>): Promise<TerminalHandle>;
}

/** What the agent factory gets for each session an editor opens, loads or resumes. */
export interface AcpSessionContext {
  sessionId: string;
  /** The session's working directory, absolute, as the editor gave it. */
  cwd: string;
  /** The MCP servers the editor asks the session to use: connect them, and close them in `close()`. */
  mcpServers: McpServer[];
  client: AcpClientAccess;
  /** The config choices of the session (model, orchestrator, policy); the server applies them to the options returned. */
  config: AcpSessionConfig;
  /** The session's stored metadata. */
  metadata: Record<string, unknown>;
}

/** The agent options of one session, and what to do when the session closes (close its MCP servers). */
export type AcpAgentSetup = SessionAgentOptions & { close?: () => void | Promise<void> };

/** Makes the agent of a session; called when a session is created, loaded or resumed in this process. */
export type AcpAgentFactory = (context: AcpSessionContext) => AcpAgentSetup | Promise<AcpAgentSetup>;

/** One model the editor may pick (the `model` config option). */
export interface AcpModelChoice {
  /** The value the editor sends back. */
  id: string;
  /** Shown in the picker; default `id`. */
  name?: string;
  description?: string;
  /** The model name passed to the provider. */
  model: string;
  /** The provider to switch to; default the session's current one. */
  provider?: Provider;
}

/** Authentication the agent needs before it can open sessions, e.g. an API key the environment lacks. */
export interface AcpAuthOptions {
  /** The ways the editor may authenticate, listed in `initialize`. */
  methods: AuthMethod[];
  /** True while sessions would fail without authenticating; `session/new` and `session/load` are refused then. */
  required(): boolean;
  /** Called for `authenticate`; throw an `Error` whose message tells the user what to do. */
  authenticate(methodId: string): void | Promise<void>;
}

/** Options of `serveAcp`. Give `createAgent` and `store`, or a `manager` of your own. */
export interface ServeAcpOptions {
  /** Makes each session's agent; with it the server applies MCP servers, config options and the editor's tools. */
  createAgent?: AcpAgentFactory;
  /** Where sessions are kept (with `createAgent`). */
  store?: SessionStore;
  /** A session manager of your own, instead of `createAgent` and `store`: only the model option applies then, and MCP servers from the editor are refused. */
  manager?: SessionManager;
  /** The JSON-RPC stream; default newline-delimited JSON over `process.stdin` / `process.stdout`. */
  stream?: Stream;
  /** Name and version shown by the editor. Default `agent-core`, `0.0.0`. */
  agentInfo?: { name: string; version: string; title?: string };
  /** Models the editor may switch between (the `model` config option); none: no model option. */
  models?: AcpModelChoice[];
  /** Registered orchestrator names the editor may switch between (the `orchestrator` option). */
  orchestrators?: string[];
  /** Policy profiles offered as the `policy` option and as modes; default all three; `false` for none (the agent's own policy stays). */
  policies?: readonly PolicyProfileName[] | false;
  /** The profile of a new session. Default `standard`. */
  defaultPolicy?: PolicyProfileName;
  /** MCP transports besides stdio that the factory connects. Default none. */
  mcpTransports?: { http?: boolean; sse?: boolean };
  /** Authentication, when the agent needs it. */
  auth?: AcpAuthOptions;
  /** Slash commands to advertise to the editor (`available_commands_update`); prompts carry them as text. */
  commands?: AvailableCommand[];
  /** Diagnostics (never stdout). Default silent. */
  logger?: Logger;
}
