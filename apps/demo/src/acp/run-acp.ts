import { readFileSync } from 'node:fs';
import { type AcpAuthOptions, serveAcp } from '@agent-core/acp';
import { type Logger, type PolicyProfileName, policyProfileNames } from '@agent-core/core';
import type { CliConfig } from '../config/load-config.js';
import { resolveProvider } from '../plugins/resolve-provider.js';
import { resolveOrchestrator } from '../plugins/resolve-tools.js';
import { openStore } from '../sessions/open-store.js';
import { sessionTools } from './session-tools.js';

const systemPrompt =
  'You are a coding assistant running in an editor through agent-core. Use the tools when they help, and answer briefly.';

/** The orchestrators an editor may pick, first the default. */
const orchestrators = ['agentic', 'react', 'plan-execute'];

const keyVariables: Record<string, string> = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' };

/**
 * `agent-core acp`: serves the CLI's agent to an editor over the Agent Client
 * Protocol on stdin and stdout until the editor closes stdin, with the
 * configuration every command reads (provider, model, orchestrator, policy
 * profile, store). Every log line goes to stderr.
 */
export async function runAcp(config: CliConfig, logger: Logger): Promise<number> {
  const warn = (message: string) => process.stderr.write(`agent-core: ${message}\n`);
  const resolved = await resolveProvider(config);
  if (resolved.notice !== undefined) warn(resolved.notice);
  const chosen = config.values.orchestrator ?? 'agentic';
  for (const name of new Set([chosen, ...orchestrators])) await resolveOrchestrator(name);
  // Only a provider on its vendor's own endpoint needs the vendor's key from the environment.
  const keyVariable =
    config.values.providers?.[resolved.name]?.base_url === undefined
      ? keyVariables[resolved.type]
      : undefined;
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const store = await openStore(config.store, logger);
  const profile = config.values.policy?.profile;
  const server = serveAcp({
    store: store.store,
    agentInfo: { name: 'agent-core', title: 'agent-core', version: manifest.version },
    models: [{ id: resolved.model, name: `${resolved.name} ${resolved.model}`, model: resolved.model }],
    orchestrators: [chosen, ...orchestrators.filter((name) => name !== chosen)],
    ...(profile !== undefined && (policyProfileNames as readonly string[]).includes(profile)
      ? { defaultPolicy: profile as PolicyProfileName }
      : {}),
    logger,
    ...(keyVariable === undefined ? {} : { auth: keyAuth(keyVariable) }),
    createAgent: async (context) => {
      const tools = await sessionTools(context, warn);
      return {
        provider: resolved.provider,
        model: resolved.model,
        systemPrompt,
        tools: tools.tools,
        logger,
        close: tools.close,
      };
    },
  });
  try {
    await server.closed;
  } finally {
    await store.close();
  }
  return 0;
}

/** Authentication for a provider whose key the environment lacks: the editor is told which variable to set. */
function keyAuth(variable: string): AcpAuthOptions {
  return {
    methods: [
      {
        id: 'environment-key',
        name: variable,
        description: `Set ${variable} in the environment the editor starts 'agent-core acp' with, then restart the agent.`,
      },
    ],
    required: () => !process.env[variable],
    authenticate: () => {
      if (!process.env[variable])
        throw new Error(
          `${variable} is not set in this agent's environment: set it where the editor starts 'agent-core acp', then restart the agent.`,
        );
    },
  };
}
