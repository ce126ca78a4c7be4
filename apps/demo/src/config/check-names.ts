import { policyProfileNames } from '@agent-core/core';
import { orchestratorNames, toolPackNames } from '../plugins/resolve-tools.js';
import { type ConfigFile, closest, type PolicyEntry, providerTypes } from './config-file.js';
import type { ConfigFileProblem } from './config-file-error.js';
import type { ConfigSource } from './config-layers.js';

/**
 * Checks every name the merged configuration gives against what the CLI can
 * load: the provider, the providers aliases point at, the orchestrator, the
 * tool packs and the policy profile. Each problem names where the value came
 * from (`file:line`, an environment variable, a flag), the value, what it may
 * have meant and every name that works. Runs before any command, and in
 * `config validate`.
 */
export function checkNames(
  values: ConfigFile & { policy?: PolicyEntry },
  sources: ReadonlyMap<string, ConfigSource>,
): ConfigFileProblem[] {
  const problems: ConfigFileProblem[] = [];
  const check = (key: string, value: string, kind: string, known: readonly string[], advice = '') => {
    if (known.includes(value)) return;
    const near = closest(value, known);
    const source = sources.get(key) ?? { kind: 'default' };
    problems.push({
      path: placeOf(source),
      line: source.kind === 'user-file' || source.kind === 'project-file' ? source.line : undefined,
      message: `'${key}' names no ${kind} the CLI can load: '${value}'${near === undefined ? '' : ` (did you mean '${near}'?)`}; ${kind}s: ${known.join(', ')}${advice}`,
    });
  };
  const providers = [...new Set([...providerTypes, ...Object.keys(values.providers ?? {})])].sort();
  const newProvider =
    '; another OpenAI-compatible server is a [providers.<name>] entry with type = "openai" and its base_url';
  if (values.provider !== undefined) check('provider', values.provider, 'provider', providers, newProvider);
  for (const [name, alias] of Object.entries(values.aliases ?? {}))
    if (typeof alias === 'object' && alias.provider !== undefined)
      check(`aliases.${name}`, alias.provider, 'provider', providers, newProvider);
  if (values.orchestrator !== undefined)
    check('orchestrator', values.orchestrator, 'orchestrator', orchestratorNames());
  for (const pack of values.tools ?? [])
    check(
      'tools',
      pack,
      'tool pack',
      toolPackNames(),
      pack === 'mcp' ? "; an MCP server's tools come from --mcp '<command>' or [mcp_servers.<name>]" : '',
    );
  const profile = values.policy?.profile;
  if (profile !== undefined) check('policy.profile', profile, 'policy profile', policyProfileNames);
  return problems;
}

/** Where a value came from, as a problem's place: a file, an environment variable, a flag. */
function placeOf(source: ConfigSource): string {
  switch (source.kind) {
    case 'user-file':
    case 'project-file':
      return source.path;
    case 'environment':
      return `environment ${source.variable}`;
    case 'flag':
      return `flag ${source.flag}`;
    case 'default':
      return 'default';
  }
}
