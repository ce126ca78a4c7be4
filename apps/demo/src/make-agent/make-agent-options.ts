import { noteRequests } from '@agent-core/cassette';
import {
  type BeforeRunHook,
  preApproveSkillTools,
  type Provider,
  type SessionAgentOptions,
  skillTools,
} from '@agent-core/core';
import type { SkillDiscovery } from '@agent-core/skills';
import { type AgentSettings, policyOf } from '../agent-settings.js';
import type { McpServerEntry } from '../config/config-file.js';
import { type ResolvedProvider, resolveProvider } from '../plugins/resolve-provider.js';
import { type PackOptions, resolveOrchestrator } from '../plugins/resolve-tools.js';
import { SessionWindow } from './session-window.js';
import { skillsForSession } from './skills-for-session.js';
import { systemPromptFor } from './system-prompt-for.js';
import { toolsForSession } from './tools-for-session.js';

/** A session as a surface opens it: the folder it works in, and what the surface chooses or adds. */
export interface AgentSession {
  /** The session's folder: its packs work in it; its project's `system_prompt.md` and `AGENTS.md` are read from it. */
  cwd: string;
  /** The session's own tool packs (a stored session's); default: the configuration's `tools`. */
  packs?: readonly string[];
  /** The packs when neither the session nor the configuration names any. Default `['basic']`. */
  defaultPacks?: readonly string[];
  /** The surface's options for packs: an editor's file operations (`fs`) and terminal runner (`shell`). */
  packOptions?: PackOptions;
  /** MCP servers of the surface's own (an editor's), after the configuration's; closed by `close()`. */
  mcpServers?: Readonly<Record<string, McpServerEntry>>;
  /** A provider and model the session picked (names of the configuration); default: the settings' current ones. */
  model?: { provider: string; model: string };
  /** An orchestrator the session picked; default: the settings'. */
  orchestrator?: string;
  /** A policy profile the session picked; the configuration's per-tool and per-risk rules stay. Default: the settings'. */
  policy?: string;
  /** The mode whose `mode_prompts` layer the prompt carries, read at each model call. Default: the policy profile. */
  mode?: () => string | undefined;
}

/** A session's agent options, and what goes with them. */
export interface MadeAgentOptions {
  /** What the session's agent is made with (a `SessionManager`'s factory returns this). */
  options: SessionAgentOptions;
  /** The provider and model, with their names in the configuration. */
  provider: ResolvedProvider;
  /** Where each tool comes from (`pack fs`, `MCP server files`), for `/tools`. */
  toolSources: ReadonlyMap<string, string>;
  /** The session's Agent Skills as discovered (the broken and hidden ones too); undefined when skills are off. */
  skills: SkillDiscovery | undefined;
  /** The context window's size in tokens for a provider and model, when known (for an editor's usage display). */
  contextSize(provider: Provider, model: string): number | undefined;
  /** Closes what this session opened (its own MCP servers); the settings' shared servers stay. */
  close(): Promise<void>;
}

/**
 * The one way the CLI makes an agent: the settings resolved from the
 * configuration (`resolveSettings`) and a session's context in, the agent
 * options out. Every surface calls it (`chat`, `run`, the REPL, `approve`,
 * `acp`) from its `SessionManager`'s factory, adding only what is its own
 * (an approver in `settings`, an editor's file system and MCP servers in
 * `session`), and calls `close()` when the session is put away. The options
 * hold the provider and model, orchestrator, tools (packs in the session's
 * folder, the configuration's MCP servers, the surface's), policy, context
 * window (`SessionWindow`: compaction, `/compact`) and the layered system prompt;
 * its provider notes on each reply the request it answered (`noteRequests`).
 *
 * @example
 * const settings = await resolveSettings(config, { logger, warn });
 * const manager = new SessionManager({
 *   store,
 *   agentOptions: async ({ metadata }) => (await makeAgentOptions(settings, { cwd: String(metadata.cwd) })).options,
 * });
 */
export async function makeAgentOptions(
  settings: AgentSettings,
  session: AgentSession,
): Promise<MadeAgentOptions> {
  const { config } = settings;
  const [provider, orchestrator] = await Promise.all([
    session.model === undefined ? settings.provider : resolveProvider(config, session.model),
    session.orchestrator === undefined || session.orchestrator === settings.orchestrator.name
      ? settings.orchestrator.orchestrator
      : resolveOrchestrator(session.orchestrator),
  ]);
  const policy =
    session.policy === undefined
      ? settings.policy
      : policyOf({ ...(config.values.policy ?? {}), profile: session.policy }, 'the session');
  const mode = session.mode ?? (() => policy.profile);
  const [tools, skills] = await Promise.all([
    toolsForSession(settings, session),
    skillsForSession(config, session.cwd, settings.warn),
  ]);
  const found = skills?.skills ?? [];
  const systemPrompt = await systemPromptFor(config, session.cwd, mode, found);
  const skillToolList = skillTools(found);
  const toolSources = new Map(tools.sources);
  for (const tool of skillToolList) toolSources.set(tool.name, 'skills');
  // Off by default: with `skills.allowed_tools`, the policy in effect for a run (an editor's pick included) is wrapped.
  const preApprove: BeforeRunHook | undefined =
    config.values.skills?.allowed_tools === true && found.length > 0
      ? (run) => {
          run.policy = preApproveSkillTools(run.policy ?? policy.option, found);
        }
      : undefined;
  const configured = config.values.context_window;
  const window = settings.compact
    ? new SessionWindow({
        configuredTokens: configured,
        learned: settings.learnedBudgets,
        provider: provider.provider,
        model: provider.model,
      })
    : undefined;
  const options: SessionAgentOptions = {
    // Each reply notes the request it answered, so a stored session replays as a whole cassette (`agent-core replay`).
    provider: noteRequests(provider.provider),
    model: provider.model,
    systemPrompt: systemPrompt.build,
    tools: [...tools.tools, ...skillToolList],
    orchestrator,
    policy: policy.option,
    ...(preApprove === undefined ? {} : { hooks: { beforeRun: preApprove } }),
    ...(settings.approve === undefined ? {} : { approve: settings.approve }),
    ...(settings.logger === undefined ? {} : { logger: settings.logger }),
    ...(window === undefined ? {} : { contextWindow: window }),
  };
  return {
    options,
    provider,
    toolSources,
    skills,
    contextSize: (current, model) =>
      window?.sizeFor(current, model) ?? current.modelInfo?.(model)?.contextWindow ?? configured,
    close: tools.close,
  };
}
