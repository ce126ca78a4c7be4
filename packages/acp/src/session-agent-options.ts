import type { McpServer } from '@agentclientprotocol/sdk';
import {
  type AnyTool,
  type BeforeRunHook,
  ConfigError,
  getOrchestrator,
  type PolicyOption,
  type PolicyProfileName,
  type PolicyRules,
  type Provider,
  type SessionAgentFactory,
  type SessionAgentOptions,
} from '@agent-core/core';
import { offeredConfig, offeredPolicies } from './config-options.js';
import type {
  AcpClientAccess,
  AcpCommand,
  AcpModelChoice,
  AcpSessionContext,
  ServeAcpOptions,
} from './serve-acp-options.js';
import type { ServedSession } from './served-session.js';
import { readSessionRecord } from './session-record.js';

/** What a session being opened brings from the editor's request, and what its opening leaves. */
export interface Opening {
  cwd: string;
  mcpServers: McpServer[];
  /** The factory's `close()`, `contextSize()` and commands, once the agent is made. */
  close?: () => void | Promise<void>;
  contextSize?: (provider: Provider, model: string) => number | undefined;
  commands?: AcpCommand[];
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
    const { config } = offeredConfig(options, record.config ?? {});
    const context: AcpSessionContext = {
      sessionId: id,
      cwd: opening.cwd,
      mcpServers: opening.mcpServers,
      client: sources.access(id),
      config,
      currentConfig: () => sources.served(id)?.config ?? config,
      metadata,
    };
    const { close, contextSize, commands, ...agentOptions } = await options.createAgent(context);
    opening.close = close;
    opening.contextSize = contextSize;
    opening.commands = commands;
    const choice = options.models?.find((model) => model.id === config.model);
    if (choice !== undefined) {
      agentOptions.model = choice.model;
      const provider = await providerOf(choice);
      if (provider !== undefined) agentOptions.provider = provider;
    }
    if (config.orchestrator !== undefined && options.orchestrators?.includes(config.orchestrator))
      agentOptions.orchestrator = getOrchestrator(config.orchestrator);
    if (offeredPolicies(options).length > 0)
      addPolicyHook(agentOptions, () => sources.served(id)?.config.policy ?? config.policy);
    agentOptions.tools = (agentOptions.tools ?? []).map((tool) => announcing(tool, () => opening.served));
    return agentOptions;
  };
}

/** The provider a model choice switches to: its instance, or what its function makes; undefined keeps the current one. */
export async function providerOf(choice: AcpModelChoice): Promise<Provider | undefined> {
  return typeof choice.provider === 'function' ? await choice.provider() : choice.provider;
}

/**
 * Applies the editor's policy profile at each run's start. Rules of the
 * factory's own (`{ extends, tools, risk }`) keep their per-tool and per-risk
 * decisions on top of the profile picked; anything else is replaced by it.
 */
function addPolicyHook(agentOptions: SessionAgentOptions, policy: () => string | undefined): void {
  const own = agentOptions.policy;
  const applyPolicy: BeforeRunHook = (run) => {
    const profile = policy() as PolicyProfileName | undefined;
    if (profile === undefined) return;
    run.policy = isRules(own) ? { ...own, extends: profile } : profile;
  };
  const before = agentOptions.hooks?.beforeRun;
  agentOptions.hooks = {
    ...agentOptions.hooks,
    // The editor's pick first: the agent's own hooks see it and may refine it (the CLI wraps it for skills' allowed-tools).
    beforeRun: [applyPolicy, ...(before === undefined ? [] : Array.isArray(before) ? before : [before])],
  };
}

function isRules(policy: PolicyOption | undefined): policy is PolicyRules {
  return (
    typeof policy === 'object' &&
    policy !== null &&
    !('decide' in policy) &&
    ('extends' in policy || 'tools' in policy || 'risk' in policy)
  );
}

/**
 * The tool, telling the session when a call of it starts running
 * (`in_progress`), after the file a write or edit changes was read for its diff.
 */
function announcing(tool: AnyTool, served: () => ServedSession | undefined): AnyTool {
  return {
    ...tool,
    async execute(input, context) {
      await served()?.live.beforeToolRuns(context.toolCallId);
      served()?.live.toolStarted(context.toolCallId);
      return tool.execute(input, context);
    },
  };
}
