import {
  RequestError,
  type SessionConfigOption,
  type SessionConfigSelectGroup,
  type SessionConfigSelectOption,
  type SessionModeState,
} from '@agentclientprotocol/sdk';
import { type PolicyProfileName, policyProfileNames } from '@agent-core/core';
import type { AcpModelChoice, ServeAcpOptions } from './serve-acp-options.js';
import type { AcpSessionConfig } from './session-record.js';

const policyDescriptions: Record<PolicyProfileName, string> = {
  strict: 'Reads run; writes ask first; commands and network tools are denied.',
  standard: 'Reads run; writes, commands and network tools ask first.',
  permissive: 'Every tool runs without asking.',
};

/** The policy profiles a server offers (none when `policies: false` or with a manager of the app's own). */
export function offeredPolicies(options: ServeAcpOptions): readonly PolicyProfileName[] {
  if (options.policies === false || options.createAgent === undefined) return [];
  return options.policies ?? policyProfileNames;
}

/** The config of a new session: the first model, the first orchestrator, the default policy. */
export function defaultConfig(options: ServeAcpOptions): AcpSessionConfig {
  const config: AcpSessionConfig = {};
  const model = options.models?.[0];
  if (model !== undefined) config.model = model.id;
  const orchestrator = options.createAgent === undefined ? undefined : options.orchestrators?.[0];
  if (orchestrator !== undefined) config.orchestrator = orchestrator;
  const policies = offeredPolicies(options);
  if (policies.length > 0) {
    const wanted = options.defaultPolicy ?? 'standard';
    config.policy = policies.includes(wanted) ? wanted : policies[0];
  }
  return config;
}

/**
 * A stored config as this server can apply it: a model, orchestrator or
 * policy it no longer offers (the configuration changed since) is replaced
 * by the default, and `dropped` names what was replaced.
 */
export function offeredConfig(
  options: ServeAcpOptions,
  config: AcpSessionConfig,
): { config: AcpSessionConfig; dropped: string[] } {
  const defaults = defaultConfig(options);
  const result: AcpSessionConfig = { ...defaults, ...config };
  const dropped: string[] = [];
  const check = (key: keyof AcpSessionConfig, offered: readonly string[]) => {
    const value = result[key];
    if (value === undefined || offered.includes(value)) return;
    dropped.push(`${key} '${value}'`);
    if (defaults[key] === undefined) delete result[key];
    else result[key] = defaults[key];
  };
  if (options.models !== undefined)
    check(
      'model',
      options.models.map((model) => model.id),
    );
  if (options.createAgent !== undefined && options.orchestrators !== undefined)
    check('orchestrator', options.orchestrators);
  if (offeredPolicies(options).length > 0) check('policy', offeredPolicies(options));
  return { config: result, dropped };
}

/** The model picker's options: grouped when any model names a group, in the order groups first appear. */
function modelOptions(
  models: readonly AcpModelChoice[],
): SessionConfigSelectOption[] | SessionConfigSelectGroup[] {
  const optionOf = (choice: AcpModelChoice): SessionConfigSelectOption => {
    const description = choice.unavailable ?? choice.description;
    return {
      value: choice.id,
      name: choice.name ?? choice.id,
      ...(description === undefined ? {} : { description }),
    };
  };
  if (models.every((choice) => choice.group === undefined)) return models.map(optionOf);
  const groups: SessionConfigSelectGroup[] = [];
  for (const choice of models) {
    const name = choice.group ?? 'Other';
    let group = groups.find((candidate) => candidate.name === name);
    if (group === undefined) {
      group = { group: name, name, options: [] };
      groups.push(group);
    }
    group.options.push(optionOf(choice));
  }
  return groups;
}

/** Every value of a select option's options, groups flattened. */
function valuesOf(options: SessionConfigSelectOption[] | SessionConfigSelectGroup[]): string[] {
  return options.flatMap((option) =>
    'group' in option ? option.options.map((inner) => inner.value) : [option.value],
  );
}

/** The config options an editor shows as pickers, with their current values. */
export function configOptionsOf(options: ServeAcpOptions, config: AcpSessionConfig): SessionConfigOption[] {
  const result: SessionConfigOption[] = [];
  if (options.models !== undefined && options.models.length > 0 && config.model !== undefined) {
    result.push({
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: config.model,
      options: modelOptions(options.models),
    });
  }
  if (
    options.createAgent !== undefined &&
    config.orchestrator !== undefined &&
    options.orchestrators !== undefined
  ) {
    result.push({
      id: 'orchestrator',
      name: 'Orchestrator',
      description: 'How the agent works through a prompt.',
      type: 'select',
      currentValue: config.orchestrator,
      options: options.orchestrators.map((name) => ({ value: name, name })),
    });
  }
  const policies = offeredPolicies(options);
  if (policies.length > 0 && config.policy !== undefined) {
    result.push({
      id: 'policy',
      name: 'Approvals',
      description: 'Which tool calls ask you first.',
      category: 'mode',
      type: 'select',
      currentValue: config.policy,
      options: policies.map((name) => ({ value: name, name, description: policyDescriptions[name] })),
    });
  }
  return result;
}

/** The policy profiles as ACP modes, or undefined when none are offered. */
export function modesOf(options: ServeAcpOptions, config: AcpSessionConfig): SessionModeState | undefined {
  const policies = offeredPolicies(options);
  if (policies.length === 0 || config.policy === undefined) return undefined;
  return {
    currentModeId: config.policy,
    availableModes: policies.map((name) => ({ id: name, name, description: policyDescriptions[name] })),
  };
}

/** Checks a `session/set_config_option` request and returns the new config; invalid params otherwise. */
export function changedConfig(
  options: ServeAcpOptions,
  config: AcpSessionConfig,
  configId: string,
  value: unknown,
): AcpSessionConfig {
  const known = configOptionsOf(options, config).find((option) => option.id === configId);
  if (known === undefined || known.type !== 'select') {
    const ids = configOptionsOf(options, config).map((option) => option.id);
    throw RequestError.invalidParams(
      { configId },
      `unknown config option '${configId}'; this session has ${ids.length === 0 ? 'none' : ids.join(', ')}`,
    );
  }
  const values = valuesOf(known.options);
  if (typeof value !== 'string' || !values.includes(value)) {
    throw RequestError.invalidParams(
      { configId, value },
      `'${String(value)}' is not a value of '${configId}'; choose one of ${values.join(', ')}`,
    );
  }
  const unavailable =
    configId === 'model' ? options.models?.find((choice) => choice.id === value)?.unavailable : undefined;
  if (unavailable !== undefined)
    throw RequestError.invalidParams(
      { configId, value },
      `the model '${value}' cannot be used now: ${unavailable}`,
    );
  return { ...config, [configId]: value };
}
