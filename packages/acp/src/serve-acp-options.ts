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
  Session,
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
  /** The config choices of the session as it opens (model, orchestrator, policy); the server applies them to the options returned. */
  config: AcpSessionConfig;
  /** The session's config choices as they are now: the editor may change the mode (policy) between prompts without the agent being made again. */
  currentConfig(): AcpSessionConfig;
  /** The session's stored metadata. */
  metadata: Record<string, unknown>;
}

/**
 * The agent options of one session, what to do when the session closes (close
 * its MCP servers), and the size of its context window in tokens for the
 * session's current provider and model, for the editor's usage display
 * (default: the provider's `modelInfo(model).contextWindow`).
 */
export type AcpAgentSetup = SessionAgentOptions & {
  close?: () => void | Promise<void>;
  contextSize?: (provider: Provider, model: string) => number | undefined;
  /** Commands of this session only (its skills, say), advertised after the server's; one named like a server command is left out. */
  commands?: AcpCommand[];
};

/** Makes the agent of a session; called when a session is created, loaded or resumed in this process. */
export type AcpAgentFactory = (context: AcpSessionContext) => AcpAgentSetup | Promise<AcpAgentSetup>;

/** One model the editor may pick (the `model` config option). */
export interface AcpModelChoice {
  /** The value the editor sends back. */
  id: string;
  /** Shown in the picker; default `id`. */
  name?: string;
  description?: string;
  /** The picker's group (e.g. the provider's name); with groups, models are shown under them in order. */
  group?: string;
  /** The model name passed to the provider. */
  model: string;
  /** The provider to switch to, or a function that makes it (called when picked); default the session's current one. */
  provider?: Provider | (() => Provider | Promise<Provider>);
  /** Why it cannot be picked now, in words that say what to do (`set OPENAI_API_KEY`): shown as its description; picking it is refused with this message. */
  unavailable?: string;
}

/** What a command's `run` gets: the session it was typed in. */
export interface AcpCommandContext {
  sessionId: string;
  /** The agent-core session: its agent, history and usage. */
  session: Session;
  config: AcpSessionConfig;
}

/**
 * A slash command offered to the editor (`available_commands_update`). With
 * `run`, a prompt `/name input` runs it instead of the model, and its text is
 * the answer; without, the prompt goes to the model as text.
 */
export interface AcpCommand extends AvailableCommand {
  run?(input: string, context: AcpCommandContext): string | Promise<string>;
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
  /** Slash commands to advertise to the editor (`available_commands_update`): run by the server when they have `run`, else sent to the model as text. */
  commands?: AcpCommand[];
  /** Diagnostics (never stdout). Default silent. */
  logger?: Logger;
}
