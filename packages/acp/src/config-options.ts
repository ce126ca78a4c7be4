import { RequestError, type SessionConfigOption, type SessionModeState } from '@agentclientprotocol/sdk';
import { type PolicyProfileName, policyProfileNames } from '@agent-core/core';
import type { ServeAcpOptions } from './serve-acp-options.js';
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
      options: options.models.map((choice) => ({
        value: choice.id,
        name: choice.name ?? choice.id,
        ...(choice.description === undefined ? {} : { description: choice.description }),
      })),
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
  const values = (known.options as { value: string }[]).map((option) => option.value);
  if (typeof value !== 'string' || !values.includes(value)) {
    throw RequestError.invalidParams(
      { configId, value },
      `'${String(value)}' is not a value of '${configId}'; choose one of ${values.join(', ')}`,
    );
  }
  return { ...config, [configId]: value };
}
