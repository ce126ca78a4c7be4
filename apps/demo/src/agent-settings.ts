import { readFile, stat } from 'node:fs/promises';
import {
  type Approver,
  ConfigError,
  type ContextWindowOptions,
  type Logger,
  loadPromptLayers,
  modelSummarizer,
  type Orchestrator,
  type PolicyOption,
  policyProfileNames,
  type SessionAgentOptions,
  SystemPromptBuilder,
} from '@agent-core/core';
import type { PolicyEntry } from './config/config-file.js';
import { describeSource } from './config/config-layers.js';
import type { CliConfig } from './config/load-config.js';
import { type ResolvedProvider, resolveProvider } from './plugins/resolve-provider.js';
import {
  type McpConnection,
  resolveOrchestrator,
  resolveTools,
  type ToolSet,
} from './plugins/resolve-tools.js';

const identity =
  'You are a helpful assistant running in the agent-core CLI. Use the tools when they help, and answer briefly.';

// A system prompt or AGENTS.md larger than this would crowd out the conversation.
const maxPromptBytes = 256 * 1024;

// A window for a model whose size is unknown: it never compacts for the budget, but it honours
// a compaction asked for with /compact and compacts once when the server answers "context overflow".
const unboundedTokens = 1_000_000_000;

/**
 * Everything an agent of the CLI is made from, resolved once and changed by
 * REPL commands (`/model`, `/provider`, `/orchestrator`, `/policy`). Every
 * session's agent is built from the current settings by `agentOptionsOf`.
 */
export interface AgentSettings {
  config: CliConfig;
  provider: ResolvedProvider;
  orchestrator: { name: string; orchestrator: Orchestrator };
  /** The tools of the current session: its packs, then the MCP servers' tools. */
  tools: ToolSet;
  /** The tools the configuration names (its packs in the working folder, then the MCP servers' tools). */
  configTools: ToolSet;
  /** The configuration's packs, and the MCP servers' tools alone, for sessions with packs of their own. */
  packs: string[];
  mcpTools: ToolSet;
  policy: { label: string; option: PolicyOption };
  /** Asks a person about a call the policy says to ask about; none pauses the run (`await_user`). */
  approve: Approver | undefined;
  logger: Logger | undefined;
  /** False with `--no-compact`: no context window at all. */
  compact: boolean;
  /** Set by `/compact` for the next run: compacts the history down to this many tokens. */
  compactTo: number | undefined;
  systemPrompt: SystemPromptBuilder;
}

/** Run-time parts of the settings that do not come from configuration. */
export interface SettingsExtras {
  approve: Approver | undefined;
  logger: Logger | undefined;
  compact: boolean;
  mcp: McpConnection;
}

/** Resolves the provider, orchestrator, tools, policy and system prompt the configuration names. */
export async function resolveSettings(config: CliConfig, extras: SettingsExtras): Promise<AgentSettings> {
  const { values } = config;
  const source = (key: string) => describeSource(config.sources.get(key) ?? { kind: 'default' });
  const packs = values.tools ?? ['basic'];
  const [provider, orchestrator, packTools, systemPrompt] = await Promise.all([
    resolveProvider(config),
    resolveOrchestrator(values.orchestrator ?? 'agentic', source('orchestrator')),
    resolveTools(packs, config.cwd, source('tools')),
    systemPromptOf(config),
  ]);
  const sources = new Map([...packTools.sources, ...extras.mcp.sources]);
  return {
    config,
    provider,
    orchestrator: { name: values.orchestrator ?? 'agentic', orchestrator },
    tools: { tools: [...packTools.tools, ...extras.mcp.tools], sources },
    configTools: { tools: [...packTools.tools, ...extras.mcp.tools], sources },
    packs,
    mcpTools: { tools: extras.mcp.tools, sources: extras.mcp.sources },
    policy: policyOf(values.policy, source('policy.profile')),
    approve: extras.approve,
    logger: extras.logger,
    compact: extras.compact,
    compactTo: undefined,
    systemPrompt,
  };
}

/** The agent options of the current settings: what every session's agent is made with. */
export function agentOptionsOf(settings: AgentSettings): SessionAgentOptions {
  const { provider, model } = settings.provider;
  return {
    provider,
    model,
    systemPrompt: settings.systemPrompt.build,
    tools: settings.tools.tools,
    orchestrator: settings.orchestrator.orchestrator,
    policy: settings.policy.option,
    ...(settings.approve === undefined ? {} : { approve: settings.approve }),
    ...(settings.logger === undefined ? {} : { logger: settings.logger }),
    ...(settings.compact ? { contextWindow: contextWindowOf(settings) } : {}),
  };
}

function contextWindowOf(settings: AgentSettings): ContextWindowOptions {
  const { provider, model } = settings.provider;
  const summarize = modelSummarizer(provider, model);
  if (settings.compactTo !== undefined) return { budgetTokens: settings.compactTo, summarize };
  // The provider's own figure wins; the configured one is for models it does not know.
  if (provider.modelInfo?.(model) !== undefined) return { summarize };
  return { budgetTokens: settings.config.values.context_window ?? unboundedTokens, summarize };
}

/**
 * The policy the configuration names: a profile alone, or rules that extend
 * one with per-tool and per-risk decisions. Default: `standard` (reading is
 * allowed; writing, commands and network calls are asked about).
 */
export function policyOf(
  entry: PolicyEntry | undefined,
  where: string,
): { label: string; option: PolicyOption } {
  const profile = entry?.profile ?? 'standard';
  if (!(policyProfileNames as readonly string[]).includes(profile)) {
    throw new ConfigError(
      `Unknown policy profile '${profile}' (${where}). Profiles: ${policyProfileNames.join(', ')}.`,
    );
  }
  const name = profile as (typeof policyProfileNames)[number];
  const tools = entry?.tools ?? {};
  const risk = entry?.risk ?? {};
  if (Object.keys(tools).length === 0 && Object.keys(risk).length === 0) return { label: name, option: name };
  const overrides = [
    ...Object.entries(tools).map(([tool, decision]) => `${tool} ${decision}`),
    ...Object.entries(risk).map(([level, decision]) => `${level} tools ${decision}`),
  ];
  return { label: `${name} (${overrides.join(', ')})`, option: { extends: name, tools, risk } };
}

/**
 * The system prompt: the CLI's identity, replaced by the project's
 * `.agent-core/system_prompt.md` when there is one (core's prompt layers), the
 * project's `AGENTS.md` as a section of its own, and the working folder.
 */
async function systemPromptOf(config: CliConfig): Promise<SystemPromptBuilder> {
  const read = async (path: string) => {
    // A device or a huge file is refused unread; core's loader names the file in its ConfigError.
    const info = await stat(path);
    if (!info.isFile()) throw new Error('it is not a regular file');
    if (info.size > maxPromptBytes)
      throw new Error(`it is ${Math.ceil(info.size / 1024)} KiB; at most ${maxPromptBytes / 1024} KiB`);
    return readFile(path, 'utf8');
  };
  const layers = await loadPromptLayers(
    config.project.systemPrompt === undefined ? {} : { project: config.project.systemPrompt },
    read,
  );
  const agents =
    config.project.agents === undefined
      ? undefined
      : await loadPromptLayers({ project: config.project.agents }, read);
  return new SystemPromptBuilder({
    identity: { ...layers, default: identity },
    workspace: config.cwd,
    sections:
      agents?.project === undefined
        ? []
        : [
            {
              name: 'agents',
              order: 150,
              heading: 'Project instructions (AGENTS.md)',
              text: agents.project,
              template: false,
            },
          ],
  });
}
