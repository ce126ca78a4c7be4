import { ConfigError, getProvider, listProviders, type Provider } from '@agent-core/core';
import { type ProviderEntry, providerTypes } from '../config/config-file.js';
import { describeSource } from '../config/config-layers.js';
import type { CliConfig } from '../config/load-config.js';
import { checkKnown, importPlugin } from './import-plugin.js';

const providerPackages: Record<string, string> = {
  anthropic: '@agent-core/provider-anthropic',
  openai: '@agent-core/provider-openai',
};

/** The model each provider type runs when none is chosen. */
export const defaultModels: Record<string, string> = {
  anthropic: 'claude-sonnet-5-5',
  openai: 'gpt-5-mini',
  mock: 'offline-mock',
};

/** A provider or model chosen at run time (`/provider`, `/model`), over the configuration. */
export interface ProviderChoice {
  provider?: string;
  model?: string;
}

/** The provider the CLI runs on, with the names messages use and a notice for the offline model. */
export interface ResolvedProvider {
  provider: Provider;
  /** The provider's name in the configuration (`anthropic`, `ollama`). */
  name: string;
  /** Which package speaks to it: `anthropic`, `openai` or `mock`. */
  type: string;
  model: string;
  notice?: string;
}

/** The provider name the configuration picks when none is named: by which key is set. */
export function detectedProvider(config: CliConfig): { name: string; reason: string } {
  const providers = config.values.providers ?? {};
  if (providers.anthropic?.api_key) return { name: 'anthropic', reason: 'an Anthropic API key is set' };
  if (providers.openai?.api_key) return { name: 'openai', reason: 'an OpenAI API key is set' };
  if (providers.openai?.base_url) return { name: 'openai', reason: 'providers.openai.base_url is set' };
  return { name: 'mock', reason: 'no API key found' };
}

/**
 * Builds the provider and model the configuration (and a run-time choice)
 * names. A model that is an alias becomes its model, on its provider when it
 * names one. Provider packages are imported only here, on first use.
 */
export async function resolveProvider(
  config: CliConfig,
  choice: ProviderChoice = {},
): Promise<ResolvedProvider> {
  const { values } = config;
  const requestedModel = choice.model ?? values.model;
  const alias = requestedModel === undefined ? undefined : values.aliases?.[requestedModel];
  const aliased = typeof alias === 'string' ? { model: alias } : alias;
  const named = choice.provider ?? aliased?.provider ?? values.provider;
  const name = named ?? detectedProvider(config).name;
  const where =
    choice.provider !== undefined
      ? '/provider'
      : aliased?.provider !== undefined
        ? `alias '${requestedModel}'`
        : describeSource(config.sources.get('provider') ?? { kind: 'default' });
  const entry: ProviderEntry = values.providers?.[name] ?? {};
  const type = entry.type ?? name;
  if (!providerTypes.includes(type)) {
    checkKnown(
      'provider',
      where,
      name,
      [...new Set([...providerTypes, ...Object.keys(values.providers ?? {}), ...listProviders()])].sort(),
    );
    throw new ConfigError(
      `The provider '${name}' has no type: add type = "openai" (or "anthropic") to [providers.${name}] in the config file.`,
    );
  }
  const model = aliased?.model ?? requestedModel ?? entry.model ?? defaultModels[type] ?? 'default';
  if (type === 'mock') {
    const { offlineModel } = await import('../offline-model.js');
    return {
      provider: offlineModel(),
      name,
      type,
      model,
      notice:
        named === undefined
          ? 'No API key found (ANTHROPIC_API_KEY or OPENAI_API_KEY): running on the offline mock model.'
          : 'Running on the offline mock model.',
    };
  }
  await importPlugin(name, providerPackages[type], 'provider');
  const options: Record<string, unknown> = {};
  if (entry.api_key !== undefined) options.apiKey = entry.api_key;
  if (entry.base_url !== undefined) Object.assign(options, baseUrlOptions(entry.base_url));
  // Messages name the server the user chose, not the API it speaks.
  const label =
    entry.name ?? (entry.base_url !== undefined ? hostOf(entry.base_url) : name !== type ? name : undefined);
  if (label !== undefined) options.name = label;
  return { provider: getProvider(type, options), name, type, model };
}

/**
 * A base URL as provider options. fetch refuses a URL with user info, so
 * `http://user:password@host/v1` becomes the bare URL and HTTP Basic
 * authentication, as a proxy in front of a local model server expects it.
 */
export function baseUrlOptions(baseUrl: string): { baseURL: string; headers?: Record<string, string> } {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return { baseURL: baseUrl };
  }
  if (url.username === '' && url.password === '') return { baseURL: baseUrl };
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = '';
  url.password = '';
  return {
    baseURL: url.href,
    headers: { authorization: `Basic ${Buffer.from(credentials).toString('base64')}` },
  };
}

/** The host (and port) of a base URL, without any user info; the URL itself if it does not parse. */
export function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host || baseUrl;
  } catch {
    return baseUrl;
  }
}
