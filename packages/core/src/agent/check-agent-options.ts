import { ConfigError } from '../errors/config-error.js';
import type { Guard } from '../governance/guard.js';
import { toPolicy } from '../governance/policy.js';
import type { Provider } from '../provider/provider.js';
import type { AnyTool } from '../tool/tool.js';
import type { AgentOptions } from './agent-options.js';

/**
 * Throws `ConfigError` for options an agent cannot run with, naming the
 * option and what it takes: at construction, never at the first call that
 * would need it.
 */
export function checkAgentOptions(options: AgentOptions): void {
  checkModel(options?.provider, options?.model);
  const maxTurns = options.limits?.maxTurns;
  if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns > 0)) {
    throw new ConfigError(`limits.maxTurns must be a positive integer, got ${maxTurns}.`);
  }
  const stopGraceMs = options.limits?.stopGraceMs;
  if (stopGraceMs !== undefined && !(Number.isFinite(stopGraceMs) && stopGraceMs >= 0)) {
    throw new ConfigError(
      `limits.stopGraceMs must be a number of milliseconds (0 or more), got ${stopGraceMs}.`,
    );
  }
  const maxChars = options.toolResultMaxChars;
  if (maxChars !== undefined && !(Number.isInteger(maxChars) && maxChars > 0)) {
    throw new ConfigError(`toolResultMaxChars must be a positive integer, got ${maxChars}.`);
  }
  checkToolNames(options.tools ?? []);
  checkGovernance(options);
}

/** Throws `ConfigError` unless `provider` can stream and `model` names a model. */
export function checkModel(provider: Provider | undefined, model: unknown): void {
  if (typeof provider?.stream !== 'function') {
    throw new ConfigError(
      'Agent needs a provider: an object with a stream(request) method, such as mock() or anthropic().',
    );
  }
  if (typeof model !== 'string' || model === '') {
    throw new ConfigError("Agent needs a model name, such as model: 'claude-sonnet-5-5'.");
  }
}

/** Throws `ConfigError` when two tools share a name. */
export function checkToolNames(tools: readonly AnyTool[]): void {
  // A fresh agent per request is common: one tool needs no set.
  if (tools.length < 2) return;
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name))
      throw new ConfigError(`Two tools are named '${tool.name}'; tool names must be unique.`);
    names.add(tool.name);
  }
}

/** Misconfigured governance fails here, naming the option, rather than at the first call it would judge. */
function checkGovernance(options: AgentOptions): void {
  if (options.policy !== undefined) toPolicy(options.policy);
  const guard = options.guard as unknown;
  if (
    guard !== undefined &&
    typeof guard !== 'boolean' &&
    typeof (guard as Guard | null)?.check !== 'function'
  )
    throw new ConfigError(
      'guard must be true (the default guard), false, or a Guard: an object with a name and a check(observation) method, such as defaultGuard().',
    );
  if (options.approve !== undefined && typeof options.approve !== 'function')
    throw new ConfigError(
      'approve must be a function that answers a PendingApproval with allow, allow_always or deny.',
    );
}
