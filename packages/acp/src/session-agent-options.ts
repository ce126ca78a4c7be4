import type { McpServer } from '@agentclientprotocol/sdk';
import {
  type AnyTool,
  type BeforeRunHook,
  ConfigError,
  getOrchestrator,
  type SessionAgentFactory,
  type SessionAgentOptions,
} from '@agent-core/core';
import { defaultConfig, offeredPolicies } from './config-options.js';
import type { AcpClientAccess, AcpSessionContext, ServeAcpOptions } from './serve-acp-options.js';
import type { ServedSession } from './served-session.js';
import { type AcpSessionConfig, readSessionRecord } from './session-record.js';

/** What a session being opened brings from the editor's request, and what its opening leaves. */
export interface Opening {
  cwd: string;
  mcpServers: McpServer[];
  /** The factory's `close()`, once the agent is made. */
  close?: () => void | Promise<void>;
  /** The served session, once it is made: its tools tell it when they start. */
  served?: ServedSession;
}

/** What the session manager's factory needs from the server. */
export interface SessionAgentSources {
  opening(id: string): Opening | undefined;
  served(id: string): ServedSession | undefined;
  access(id: string): AcpClientAccess;
}

/**
 * The `SessionManager` factory of a server with `createAgent`: calls it with
 * the editor's request (cwd, MCP servers, client access) and the session's
 * config, then applies the config the server offers: the chosen model and
 * orchestrator, the policy profile (read at each run's start, so a change of
 * mode applies from the next prompt on), and tools that announce when they start.
 */
export function sessionAgentOptions(
  options: ServeAcpOptions,
  sources: SessionAgentSources,
): SessionAgentFactory {
  return async ({ id, metadata }) => {
    const opening = sources.opening(id);
    if (opening === undefined || options.createAgent === undefined)
      throw new ConfigError(`Session ${id} was opened outside the ACP server; open it with session/load.`);
    const record = readSessionRecord(metadata, opening.cwd);
    const config: AcpSessionConfig = { ...defaultConfig(options), ...record.config };
    const context: AcpSessionContext = {
      sessionId: id,
      cwd: opening.cwd,
      mcpServers: opening.mcpServers,
      client: sources.access(id),
      config,
      metadata,
    };
    const { close, ...agentOptions } = await options.createAgent(context);
    opening.close = close;
    const choice = options.models?.find((model) => model.id === config.model);
    if (choice !== undefined) {
      agentOptions.model = choice.model;
      if (choice.provider !== undefined) agentOptions.provider = choice.provider;
    }
    if (config.orchestrator !== undefined && options.orchestrators?.includes(config.orchestrator))
      agentOptions.orchestrator = getOrchestrator(config.orchestrator);
    if (offeredPolicies(options).length > 0)
      addPolicyHook(agentOptions, () => sources.served(id)?.config.policy ?? config.policy);
    agentOptions.tools = (agentOptions.tools ?? []).map((tool) => announcing(tool, () => opening.served));
    return agentOptions;
  };
}

function addPolicyHook(agentOptions: SessionAgentOptions, policy: () => string | undefined): void {
  const applyPolicy: BeforeRunHook = (run) => {
    const profile = policy();
    if (profile !== undefined) run.policy = profile as typeof run.policy;
  };
  const before = agentOptions.hooks?.beforeRun;
  agentOptions.hooks = {
    ...agentOptions.hooks,
    beforeRun: [...(before === undefined ? [] : Array.isArray(before) ? before : [before]), applyPolicy],
  };
}

/** The tool, telling the session when a call of it starts running (`in_progress`). */
function announcing(tool: AnyTool, served: () => ServedSession | undefined): AnyTool {
  return {
    ...tool,
    execute(input, context) {
      served()?.live.toolStarted(context.toolCallId);
      return tool.execute(input, context);
    },
  };
}
