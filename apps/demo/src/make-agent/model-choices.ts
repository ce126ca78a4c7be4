import type { AliasEntry } from '../config/config-file.js';
import type { CliConfig } from '../config/load-config.js';
import { defaultModels, detectedProvider } from '../plugins/resolve-provider.js';

/** One model a person may switch to: the REPL's `/model`, an editor's model picker. */
export interface ModelChoice {
  /** How it is picked: `provider/model`, or the alias's name. */
  id: string;
  /** The provider's name in the configuration (`anthropic`, `ollama`). */
  provider: string;
  /** The model the provider is asked for. */
  model: string;
  /** The `[aliases]` entry it comes from, if any. */
  alias?: string;
  /** True for the model the configuration runs when nothing is picked. */
  isDefault: boolean;
  /** What to set before it can be used (its provider has no key), in CLI words; undefined when it can be used. */
  missing?: string;
}

/** The environment variable each provider type reads its key from. */
export const keyVariables: Readonly<Record<string, string>> = {
  anthropic: 'ANTHROPIC_API_KEY',
  openai: 'OPENAI_API_KEY',
};

/**
 * Every model the configuration names, the default first: the default
 * provider's model, each `[providers.*]` entry's model, then each alias.
 * A model whose provider has no key says what to set. Aliases whose
 * provider the CLI cannot build are left out (`config validate` names them).
 */
export function modelChoices(config: CliConfig): ModelChoice[] {
  const { values } = config;
  const choices: ModelChoice[] = [];
  const add = (provider: string, model: string, alias?: string) => {
    const type = values.providers?.[provider]?.type ?? provider;
    if (!(type in defaultModels)) return;
    const id = alias ?? `${provider}/${model}`;
    if (choices.some((choice) => choice.id === id)) return;
    const missing = missingKey(config, provider);
    choices.push({
      id,
      provider,
      model,
      ...(alias === undefined ? {} : { alias }),
      isDefault: choices.length === 0,
      ...(missing === undefined ? {} : { missing }),
    });
  };
  const fallback = values.provider ?? detectedProvider(config).name;
  const defaultAlias = values.model === undefined ? undefined : aliasTarget(values.aliases?.[values.model]);
  const defaultProvider = defaultAlias?.provider ?? fallback;
  add(defaultProvider, defaultAlias?.model ?? values.model ?? modelOf(config, defaultProvider));
  for (const name of Object.keys(values.providers ?? {})) add(name, modelOf(config, name));
  for (const [alias, entry] of Object.entries(values.aliases ?? {})) {
    const target = aliasTarget(entry) as { provider?: string; model: string };
    add(target.provider ?? defaultProvider, target.model, alias);
  }
  return choices;
}

/** The choice a name picks: its id, an alias, or a model name of the default provider's or any provider's. */
export function findModelChoice(choices: readonly ModelChoice[], name: string): ModelChoice | undefined {
  return (
    choices.find((choice) => choice.id === name) ??
    choices.find((choice) => choice.model === name && choice.isDefault) ??
    choices.find((choice) => choice.model === name)
  );
}

/**
 * What to set so a provider can be used, or undefined when it has a key (or
 * needs none: the offline model, an OpenAI-compatible server at a base URL).
 */
export function missingKey(config: CliConfig, provider: string): string | undefined {
  const entry = config.values.providers?.[provider] ?? {};
  const type = entry.type ?? provider;
  const variable = keyVariables[type];
  if (variable === undefined || entry.api_key !== undefined) return undefined;
  if (type === 'openai' && entry.base_url !== undefined) return undefined;
  // A provider of another name falls back to its type's variable when a request is made.
  if (config.sources.get(`providers.${type}.api_key`)?.kind === 'environment') return undefined;
  return `set ${variable}, or api_key in [providers.${provider}] of the config file`;
}

function modelOf(config: CliConfig, provider: string): string {
  const entry = config.values.providers?.[provider];
  return entry?.model ?? defaultModels[entry?.type ?? provider] ?? 'default';
}

function aliasTarget(entry: AliasEntry | undefined): { provider?: string; model: string } | undefined {
  return typeof entry === 'string' ? { model: entry } : entry;
}
