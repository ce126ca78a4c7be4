import { noteRequests } from '@agent-core/cassette';
import { existsSync, readFileSync } from 'node:fs';
import { type AcpAuthOptions, type AcpModelChoice, type AcpSessionContext, serveAcp } from '@agent-core/acp';
import { type Logger, type PolicyProfileName, policyProfileNames } from '@agent-core/core';
import { type AgentSettings, resolveSettings } from '../agent-settings.js';
import type { McpServerEntry } from '../config/config-file.js';
import type { CliConfig } from '../config/load-config.js';
import { findProjectFiles } from '../config/project-files.js';
import { type MadeAgentOptions, makeAgentOptions } from '../make-agent/make-agent-options.js';
import { keyVariables, type ModelChoice, missingKey, modelChoices } from '../make-agent/model-choices.js';
import { resolveProvider } from '../plugins/resolve-provider.js';
import { resolveOrchestrator } from '../plugins/resolve-tools.js';
import { openStore } from '../sessions/open-store.js';
import { clientFileOperations } from './client-file-operations.js';
import { editorCommands, skillCommands } from './editor-commands.js';
import { terminalRunner } from './terminal-runner.js';

/** The orchestrators an editor may pick, first the default. */
const orchestrators = ['agentic', 'react', 'plan-execute'];

/** What an editor session gets when the configuration names no tool packs: files and commands, in its folder. */
const editorPacks = ['basic', 'fs', 'shell'];

/** The loggers of `acp`: the store's warnings always, the run's records with a log level. */
export interface AcpLoggers {
  store: Logger;
  run: Logger | undefined;
}

/**
 * `agent-core acp`: serves the CLI's agent to an editor over the Agent Client
 * Protocol on stdin and stdout until the editor closes stdin. Each session's
 * agent is made by `makeAgentOptions` from the configuration, as for every
 * other command, with what is the editor's own: its file system and
 * terminals, its MCP servers, and the model, orchestrator and mode it picks.
 * Every log line and warning goes to stderr.
 */
export async function runAcp(
  config: CliConfig,
  loggers: AcpLoggers,
  warn: (message: string) => void,
): Promise<number> {
  const settings = await resolveSettings(config, {
    ...(loggers.run === undefined ? {} : { logger: loggers.run }),
    warn,
  });
  if (settings.provider.notice !== undefined) warn(settings.provider.notice);
  const chosen = settings.orchestrator.name;
  for (const name of new Set([chosen, ...orchestrators])) await resolveOrchestrator(name);
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const choices = modelChoices(config);
  const made = new Map<string, MadeAgentOptions>();
  const store = await openStore(config.store, loggers.store);
  const missing = missingKey(config, settings.provider.name);
  const profile = settings.policy.profile;
  const server = serveAcp({
    store: store.store,
    agentInfo: { name: 'agent-core', title: 'agent-core', version: manifest.version },
    models: choices.map((choice) => pickerEntry(config, choice)),
    orchestrators: [chosen, ...orchestrators.filter((name) => name !== chosen)],
    ...((policyProfileNames as readonly string[]).includes(profile)
      ? { defaultPolicy: profile as PolicyProfileName }
      : {}),
    logger: loggers.store,
    commands: editorCommands((sessionId) => made.get(sessionId)),
    ...(missing === undefined
      ? {}
      : { auth: keyAuth(keyVariables[settings.provider.type] ?? 'API key', missing) }),
    createAgent: async (context) => {
      const agent = await makeAgentOptions(settings, editorSession(settings, context, choices));
      made.set(context.sessionId, agent);
      const { provider, model } = agent.options;
      if (agent.contextSize(provider, model) === undefined)
        settings.warn(
          `the context window of model '${model}' is unknown: set context_window in the config (or --context-window) so an editor shows the context used and sessions compact before the server refuses them.`,
        );
      return {
        ...agent.options,
        contextSize: agent.contextSize,
        commands: skillCommands(agent.skills),
        close: async () => {
          if (made.get(context.sessionId) === agent) made.delete(context.sessionId);
          await agent.close();
        },
      };
    },
  });
  try {
    await server.closed;
  } finally {
    await settings.close();
    await store.close();
  }
  return 0;
}

/**
 * An editor's session as `makeAgentOptions` takes it: its folder, the
 * editor's file system and terminals for the packs, its MCP servers, and the
 * model, orchestrator and mode it picked (the mode read at each model call).
 */
function editorSession(settings: AgentSettings, context: AcpSessionContext, choices: readonly ModelChoice[]) {
  const { client, cwd, config } = context;
  const project = findProjectFiles(cwd).config;
  if (project !== undefined && project !== settings.config.project.config && existsSync(project))
    settings.warn(
      `${project} is not read for editor sessions in ${cwd}: 'agent-core acp' reads its configuration once, where it starts (${settings.config.cwd}). Start it in that folder, or put those keys in the user config file. The folder's system_prompt.md and AGENTS.md are used.`,
    );
  const choice = choices.find((candidate) => candidate.id === config.model);
  return {
    cwd,
    defaultPacks: editorPacks,
    packOptions: {
      fs: { operations: clientFileOperations(client) },
      ...(client.capabilities.terminal === true ? { shell: { runner: terminalRunner(client) } } : {}),
    },
    mcpServers: editorServers(context),
    ...(choice === undefined ? {} : { model: { provider: choice.provider, model: choice.model } }),
    ...(config.orchestrator === undefined ? {} : { orchestrator: config.orchestrator }),
    ...(config.policy === undefined ? {} : { policy: config.policy }),
    mode: () => context.currentConfig().policy,
  };
}

/** A configured model as the editor's picker shows it: under its provider, with what to set when it has no key. */
function pickerEntry(config: CliConfig, choice: ModelChoice): AcpModelChoice {
  return {
    id: choice.id,
    name: choice.alias === undefined ? choice.model : `${choice.alias} (${choice.model})`,
    group: choice.provider,
    model: choice.model,
    ...(choice.missing === undefined ? {} : { unavailable: choice.missing }),
    // Noted as makeAgentOptions notes it, so the replies after a pick still replay as a cassette.
    provider: async () =>
      noteRequests(
        (await resolveProvider(config, { provider: choice.provider, model: choice.model })).provider,
      ),
  };
}

/** The MCP servers the editor passed, as configuration entries (stdio ones start in the session's folder). */
function editorServers(context: AcpSessionContext): Record<string, McpServerEntry> {
  const servers: Record<string, McpServerEntry> = {};
  for (const server of context.mcpServers) {
    const name = server.name.replace(/[^A-Za-z0-9_-]/g, '_') || 'mcp';
    servers[name] =
      'type' in server
        ? {
            url: server.url,
            headers: Object.fromEntries(server.headers.map((header) => [header.name, header.value])),
          }
        : {
            command: server.command,
            args: server.args,
            env: Object.fromEntries(server.env.map((variable) => [variable.name, variable.value])),
            cwd: context.cwd,
          };
  }
  return servers;
}

/** Authentication for a provider without a key: the editor is told what to set, and where. */
function keyAuth(variable: string, missing: string): AcpAuthOptions {
  const advice = `The provider has no key: ${missing} (in the environment the editor starts 'agent-core acp' with), then restart the agent.`;
  return {
    methods: [{ id: 'environment-key', name: variable, description: advice }],
    required: () => true,
    authenticate: () => {
      throw new Error(advice);
    },
  };
}
