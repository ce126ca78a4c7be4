import {
  type AnyTool,
  ConfigError,
  getOrchestrator,
  getProvider,
  listOrchestrators,
  listProviders,
  listToolPacks,
  type Orchestrator,
  type Provider,
  ToolRegistry,
} from '@agent-core/core';
import '@agent-core/orchestrator-agentic';
import '@agent-core/tools-basic';
import { offlineModel } from './offline-model.js';

// Plugins the demo knows by name; each is imported only when asked for, so startup stays fast.
const providerPackages: Record<string, string> = {
  anthropic: '@agent-core/provider-anthropic',
  openai: '@agent-core/provider-openai',
};
const orchestratorPackages: Record<string, string> = {
  react: '@agent-core/orchestrator-react',
  'plan-execute': '@agent-core/orchestrator-plan-execute',
};
const toolPackages: Record<string, string> = {
  fs: '@agent-core/tools-fs',
  shell: '@agent-core/tools-shell',
};
const defaultModels: Record<string, string> = {
  anthropic: 'claude-sonnet-4-5',
  openai: 'gpt-5-mini',
  mock: 'offline-mock',
};

// The packs `--tools` takes; `mcp` needs a connection, so it comes through `--mcp` instead.
const builtInToolPacks = ['basic'];
const viaOtherFlags = new Set(['mcp']);

/**
 * Every name of a kind the demo can load: the ones it imports on demand and
 * the ones already registered (a plugin imported some other way), sorted.
 */
function loadableNames(builtIn: readonly string[], packages: Record<string, string>, registered: string[]) {
  return [...new Set([...builtIn, ...Object.keys(packages), ...registered])]
    .filter((name) => !viaOtherFlags.has(name))
    .sort();
}

function checkKnown(kind: string, flag: string, name: string, known: readonly string[]): void {
  if (!known.includes(name)) {
    throw new ConfigError(`Unknown ${kind} '${name}' (${flag}). The demo can load: ${known.join(', ')}.`);
  }
}

/** The provider the demo runs on, and a notice to show when it fell back to the offline model. */
export interface ResolvedProvider {
  provider: Provider;
  name: string;
  model: string;
  notice?: string;
}

async function importPlugin(name: string, packageName: string | undefined, kind: string): Promise<void> {
  if (packageName === undefined) return;
  try {
    await import(packageName);
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND') {
      throw new ConfigError(
        `The ${kind} '${name}' needs ${packageName}; install it with: npm i ${packageName}`,
      );
    }
    throw error;
  }
}

/**
 * Picks the provider: `--provider` if given; else Anthropic or OpenAI when
 * their key is set (or OpenAI for a `--base-url`); else the offline model.
 */
export async function resolveProvider(
  requested: string | undefined,
  model: string | undefined,
  baseUrl: string | undefined,
  env: Record<string, string | undefined>,
  providerName?: string,
): Promise<ResolvedProvider> {
  let name = requested;
  if (name === undefined) {
    if (env.ANTHROPIC_API_KEY) name = 'anthropic';
    else if (env.OPENAI_API_KEY || baseUrl !== undefined) name = 'openai';
  }
  if (name === undefined || name === 'mock') {
    return {
      provider: offlineModel(),
      name: 'mock',
      model: model ?? 'offline-mock',
      ...(name === undefined
        ? {
            notice:
              'No API key found (ANTHROPIC_API_KEY or OPENAI_API_KEY): running on the offline mock model.',
          }
        : { notice: 'Running on the offline mock model.' }),
    };
  }
  checkKnown('provider', '--provider', name, loadableNames(['mock'], providerPackages, listProviders()));
  await importPlugin(name, providerPackages[name], 'provider');
  const options: Record<string, unknown> = {};
  if (baseUrl !== undefined) {
    options.baseURL = baseUrl;
    // Messages name the server the user chose, not the API it speaks.
    options.name = providerName ?? hostOf(baseUrl);
  } else if (providerName !== undefined) options.name = providerName;
  return {
    provider: getProvider(name, options),
    name: typeof options.name === 'string' ? options.name : name,
    model: model ?? defaultModels[name] ?? 'default',
  };
}

/** The orchestrator registered under `name`, importing its package first when the demo knows it. */
export async function resolveOrchestrator(name: string): Promise<Orchestrator> {
  checkKnown(
    'orchestrator',
    '--orchestrator',
    name,
    loadableNames(['agentic'], orchestratorPackages, listOrchestrators()),
  );
  if (!listOrchestrators().includes(name))
    await importPlugin(name, orchestratorPackages[name], 'orchestrator');
  return getOrchestrator(name);
}

/** The tools of the named packs; `fs` and `shell` work inside `workspace`. */
export async function resolveTools(packs: readonly string[], workspace: string): Promise<AnyTool[]> {
  const known = loadableNames(builtInToolPacks, toolPackages, listToolPacks());
  for (const pack of packs) {
    if (pack === 'mcp') throw new ConfigError("The 'mcp' tools come from a server: use --mcp '<command>'.");
    checkKnown('tool pack', '--tools', pack, known);
  }
  for (const pack of packs) await importPlugin(pack, toolPackages[pack], 'tool pack');
  const options = { fs: { root: workspace }, shell: { cwd: workspace } };
  return new ToolRegistry().resolvePacks(packs, options);
}

/** The tools of the MCP servers started by these commands, and how to stop them. */
export async function connectMcp(
  commands: readonly string[],
  warn: (message: string) => void,
): Promise<{ tools: AnyTool[]; close(): Promise<void> }> {
  if (commands.length === 0) return { tools: [], close: async () => {} };
  await importPlugin('mcp', '@agent-core/tools-mcp', 'tool pack');
  const { mcpTools } = (await import('@agent-core/tools-mcp')) as typeof import('@agent-core/tools-mcp');
  const servers = Object.fromEntries(
    commands.map((line, index) => {
      const [command = '', ...args] = splitCommand(line);
      return [commands.length === 1 ? 'mcp' : `mcp${index + 1}`, { command, args }];
    }),
  );
  const mcp = await mcpTools({ servers });
  for (const status of Object.values(mcp.servers)) {
    if (status.state === 'failed') warn(`MCP server '${status.name}' failed: ${status.error?.message}`);
  }
  return { tools: mcp.tools, close: () => mcp.close() };
}

/** The host (and port) of a base URL, to name an OpenAI-compatible server; the URL itself if it does not parse. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}

/** Splits a command line on spaces, keeping quoted parts together. */
export function splitCommand(line: string): string[] {
  const parts: string[] = [];
  for (const match of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g))
    parts.push(match[1] ?? match[2] ?? match[3] ?? '');
  return parts;
}
