import { readFileSync } from 'node:fs';
import { type AcpAuthOptions, serveAcp } from '@agent-core/acp';
import { type Logger, stderrLogger } from '@agent-core/core';
import { FileSessionStore } from '@agent-core/store-file';
import { sessionsDirectory } from '../data-dir.js';
import type { CliArguments } from '../parse-args.js';
import { resolveOrchestrator, resolveProvider } from '../resolve-plugins.js';
import { sessionTools } from './session-tools.js';

const systemPrompt =
  'You are a coding assistant running in an editor through agent-core. Use the tools when they help, and answer briefly.';

/** The orchestrators an editor may pick, first the default. */
const orchestrators = ['agentic', 'react', 'plan-execute'];

const keyVariables: Record<string, string> = { anthropic: 'ANTHROPIC_API_KEY', openai: 'OPENAI_API_KEY' };

/**
 * `agent-core acp`: serves the demo's agent to an editor over the Agent Client
 * Protocol on stdin and stdout until the editor closes stdin. Sessions are
 * stored under the data dir; every log line goes to stderr.
 */
export async function runAcp(args: CliArguments): Promise<number> {
  const logger: Logger = stderrLogger(args.logLevel ?? 'warn');
  const warn = (message: string) => process.stderr.write(`agent-core: ${message}\n`);
  const resolved = await resolveProvider(
    args.provider,
    args.model,
    args.baseUrl,
    process.env,
    args.providerName,
  );
  if (resolved.notice !== undefined) warn(resolved.notice);
  for (const name of orchestrators) await resolveOrchestrator(name);
  const keyVariable = args.baseUrl === undefined ? keyVariables[resolved.name] : undefined;
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  const server = serveAcp({
    store: new FileSessionStore({ root: sessionsDirectory(args.dataDir, process.env), logger }),
    agentInfo: { name: 'agent-core', title: 'agent-core demo', version: manifest.version },
    models: [{ id: resolved.model, name: `${resolved.name} ${resolved.model}`, model: resolved.model }],
    orchestrators: [args.orchestrator, ...orchestrators.filter((name) => name !== args.orchestrator)],
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
  await server.closed;
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
