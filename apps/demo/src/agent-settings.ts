import {
  type Approver,
  ConfigError,
  type Logger,
  type Orchestrator,
  type PolicyOption,
  policyProfileNames,
} from '@agent-core/core';
import type { PolicyEntry } from './config/config-file.js';
import { describeSource } from './config/config-layers.js';
import type { CliConfig } from './config/load-config.js';
import type { LearnedBudgets } from './make-agent/session-window.js';
import { type ResolvedProvider, resolveProvider } from './plugins/resolve-provider.js';
import { connectMcp, type McpConnection, resolveOrchestrator } from './plugins/resolve-tools.js';

/**
 * What every agent of a process is made from: the configuration resolved
 * once, and the choices a person changes while it runs (the REPL's
 * `/model`, `/provider`, `/orchestrator`, `/policy`). `makeAgentOptions`
 * turns it and a session's context into that session's agent options.
 */
export interface AgentSettings {
  config: CliConfig;
  /** The current provider and model. */
  provider: ResolvedProvider;
  orchestrator: { name: string; orchestrator: Orchestrator };
  /** The policy: its profile (also the mode of the prompt's mode layer), its rules, and how to name it. */
  policy: { profile: string; label: string; option: PolicyOption };
  /** Asks a person about a call the policy says to ask about; none pauses the run (`await_user`). */
  approve: Approver | undefined;
  logger: Logger | undefined;
  /** False with `--no-compact`: no context window at all. */
  compact: boolean;
  /** The configuration's MCP servers, connected on first use and shared by every session of the process. */
  mcp(): Promise<McpConnection>;
  /** What providers taught by refusing requests as too long: every session's window knows it. */
  learnedBudgets: LearnedBudgets;
  /** Reports a problem that does not stop anything (an MCP server that failed), once per message. */
  warn(message: string): void;
  /** Closes what the settings opened (the configuration's MCP servers). */
  close(): Promise<void>;
}

/** What a surface brings to its settings besides the configuration. */
export interface SettingsExtras {
  /** A terminal's inline approver, or `--yes`; none: a call that needs approval pauses its run. */
  approve?: Approver;
  logger?: Logger;
  /** False for `--no-compact`. Default true. */
  compact?: boolean;
  /** Where warnings go (stderr). Default: nowhere. */
  warn?: (message: string) => void;
}

/**
 * Resolves the provider, orchestrator and policy the configuration names
 * (plugins imported on first use); MCP servers connect when the first agent is made.
 *
 * @example
 * const settings = await resolveSettings(await loadConfig({ env: process.env, cwd }), { warn });
 * const made = await makeAgentOptions(settings, { cwd });
 */
export async function resolveSettings(
  config: CliConfig,
  extras: SettingsExtras = {},
): Promise<AgentSettings> {
  const { values } = config;
  const source = (key: string) => describeSource(config.sources.get(key) ?? { kind: 'default' });
  const [provider, orchestrator] = await Promise.all([
    resolveProvider(config),
    resolveOrchestrator(values.orchestrator ?? 'agentic', source('orchestrator')),
  ]);
  const warned = new Set<string>();
  const warn = (message: string) => {
    if (warned.has(message)) return;
    warned.add(message);
    extras.warn?.(message);
  };
  let connection: Promise<McpConnection> | undefined;
  const mcp = () => {
    connection ??= connectMcp(values.mcp_servers ?? {}).then((connected) => {
      for (const failure of connected.failures) warn(failure);
      return connected;
    });
    return connection;
  };
  return {
    config,
    provider,
    orchestrator: { name: values.orchestrator ?? 'agentic', orchestrator },
    policy: policyOf(values.policy, source('policy.profile')),
    approve: extras.approve,
    logger: extras.logger,
    compact: extras.compact ?? true,
    mcp,
    learnedBudgets: new Map(),
    warn,
    close: async () => {
      if (connection !== undefined) await (await connection).close();
    },
  };
}

/**
 * The policy the configuration names: a profile alone, or rules that extend
 * one with per-tool and per-risk decisions. Default: `standard` (reading is
 * allowed; writing, commands and network calls are asked about).
 */
export function policyOf(
  entry: PolicyEntry | undefined,
  where: string,
): { profile: string; label: string; option: PolicyOption } {
  const profile = entry?.profile ?? 'standard';
  if (!(policyProfileNames as readonly string[]).includes(profile)) {
    throw new ConfigError(
      `Unknown policy profile '${profile}' (${where}). Profiles: ${policyProfileNames.join(', ')}.`,
    );
  }
  const name = profile as (typeof policyProfileNames)[number];
  const tools = entry?.tools ?? {};
  const risk = entry?.risk ?? {};
  if (Object.keys(tools).length === 0 && Object.keys(risk).length === 0)
    return { profile: name, label: name, option: name };
  const overrides = [
    ...Object.entries(tools).map(([tool, decision]) => `${tool} ${decision}`),
    ...Object.entries(risk).map(([level, decision]) => `${level} tools ${decision}`),
  ];
  return {
    profile: name,
    label: `${name} (${overrides.join(', ')})`,
    option: { extends: name, tools, risk },
  };
}
