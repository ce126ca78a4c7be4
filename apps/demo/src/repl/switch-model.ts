import { ConfigError } from '@agent-core/core';
import type { AgentSettings } from '../agent-settings.js';
import { providerTypes } from '../config/config-file.js';
import { findModelChoice, missingKey, modelChoices } from '../make-agent/model-choices.js';
import { defaultModels, type ResolvedProvider, resolveProvider } from '../plugins/resolve-provider.js';

/**
 * What `/model` and `/provider` alone say: the current provider and model,
 * and every model of the configuration that can be picked, each with how to
 * pick it and, for a provider without a key, what to set.
 */
export function modelListing(settings: AgentSettings): string {
  const { name, model } = settings.provider;
  const choices = modelChoices(settings.config);
  const width = Math.max(...choices.map((choice) => choice.id.length));
  const lines = choices.map((choice) => {
    const current = choice.provider === name && choice.model === model ? '  (current)' : '';
    const what = choice.alias === undefined ? '' : `  ${choice.provider} ${choice.model}`;
    const missing = choice.missing === undefined ? '' : `  needs a key: ${choice.missing}`;
    return `    /model ${choice.id.padEnd(width)}${what}${current}${missing}`;
  });
  const others = providerNames(settings).filter(
    (provider) => !choices.some((choice) => choice.provider === provider),
  );
  return [
    `provider ${name}, model ${model}. The configured models:`,
    ...lines,
    ...(others.length === 0
      ? []
      : [`  Other providers: ${others.map((provider) => `/provider ${provider}`).join(', ')}`]),
  ].join('\n');
}

/**
 * The provider and model a `/model` or `/provider` switch asks for, or a
 * `ConfigError` saying why it cannot work and what to do, before anything
 * changes: a provider without its key, an unknown provider, a model neither
 * configured nor known to its provider (any name goes to an OpenAI-compatible
 * server at a base URL).
 */
export async function chooseModel(
  settings: AgentSettings,
  provider: string | undefined,
  model: string | undefined,
): Promise<ResolvedProvider> {
  const { config } = settings;
  const choices = modelChoices(config);
  if (provider === undefined && model !== undefined) {
    const choice = findModelChoice(choices, model);
    if (choice !== undefined) return checked(settings, choice.provider, choice.model);
    const current = settings.provider;
    const resolved = await checked(settings, current.name, model);
    const known = resolved.provider.modelInfo?.(resolved.model) !== undefined;
    // A server at a base URL serves the models it has, by any name; nothing else can be checked.
    const anyName = config.values.providers?.[current.name]?.base_url !== undefined;
    if (!known && !anyName)
      throw new ConfigError(
        `No model '${model}' is configured, and ${current.name} does not know it: /model alone lists the models you can pick; for another one, add it to [aliases] of the config file (${model.replace(/\W/g, '_')} = { provider = "${current.name}", model = "${model}" }).`,
      );
    return resolved;
  }
  const name = provider ?? settings.provider.name;
  if (!providerNames(settings).includes(name))
    throw new ConfigError(
      `Unknown provider '${name}'. The CLI can use: ${providerNames(settings).join(', ')}; another OpenAI-compatible server goes in [providers.<name>] of the config file, with type = "openai" and its base_url.`,
    );
  return checked(settings, name, model);
}

async function checked(
  settings: AgentSettings,
  provider: string,
  model: string | undefined,
): Promise<ResolvedProvider> {
  const missing = missingKey(settings.config, provider);
  if (missing !== undefined)
    throw new ConfigError(
      `The provider ${provider} has no API key: ${missing}, then start agent-core again.`,
    );
  // A provider alone runs its own model, never the configured model of another provider.
  const entry = settings.config.values.providers?.[provider];
  const ownModel = model ?? entry?.model ?? defaultModels[entry?.type ?? provider];
  return resolveProvider(settings.config, {
    provider,
    ...(ownModel === undefined ? {} : { model: ownModel }),
  });
}

/** The providers the configuration names and the ones the CLI knows. */
function providerNames(settings: AgentSettings): string[] {
  return [...new Set([...providerTypes, ...Object.keys(settings.config.values.providers ?? {})])];
}
