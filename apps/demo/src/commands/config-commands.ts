import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { configTemplate } from '../config/config-template.js';
import { type ConfigFileProblem, formatProblem } from '../config/config-file-error.js';
import { describeSource } from '../config/config-layers.js';
import { type CliConfig, loadConfig } from '../config/load-config.js';
import { maskedValue, maskUrl } from '../config/mask-secrets.js';
import { findProjectFiles } from '../config/project-files.js';
import { readConfigFile } from '../config/read-config-file.js';
import { type Environment, userConfigFile } from '../config/xdg-paths.js';
import { exitCodes } from '../exit-codes.js';
import type { OutputStream } from '../output/terminal-style.js';
import { UsageError } from '../parse-args.js';
import { defaultModels, detectedProvider } from '../plugins/resolve-provider.js';

/**
 * `config init`: writes the commented template to the user file (or, with
 * `--project`, to `.agent-core/config.toml` here). An existing file is kept
 * unless `--force`.
 */
export function configInit(
  options: { project: boolean; force: boolean },
  env: Environment,
  cwd: string,
  out: OutputStream,
): number {
  const path = options.project ? join(cwd, '.agent-core', 'config.toml') : userConfigFile(env);
  if (existsSync(path) && !options.force)
    throw new UsageError(
      `${path} already exists; 'agent-core config init --force' replaces it (its content is lost).`,
    );
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, configTemplate, { mode: 0o600 });
  out.write(`Wrote ${path}. Every key in it is commented out: uncomment what you want to change.\n`);
  return exitCodes.completed;
}

/**
 * `config validate`: reads the user file and the project file and prints
 * every problem as `file:line: message`: keys and values each file must
 * hold, then, with the files merged as every command merges them (the
 * environment included), every name the CLI could not load (a provider, an
 * alias's provider, an orchestrator, a tool pack, a policy profile). Exit
 * code 2 when there is one.
 */
export async function configValidate(
  env: Environment,
  cwd: string,
  out: OutputStream,
  errors: OutputStream,
): Promise<number> {
  const files = [userConfigFile(env), findProjectFiles(cwd).config].filter((path) => path !== undefined);
  let failed = false;
  const valid: string[] = [];
  for (const path of files) {
    try {
      const file = await readConfigFile(path);
      if (file === undefined) out.write(`${path}: not found (nothing to check)\n`);
      else valid.push(path);
    } catch (error) {
      const problems = problemsOf(error);
      failed = true;
      for (const problem of problems) errors.write(`${formatProblem(problem)}\n`);
    }
  }
  if (failed) return exitCodes.usage;
  try {
    await loadConfig({ env, cwd });
  } catch (error) {
    for (const problem of problemsOf(error)) errors.write(`${formatProblem(problem)}\n`);
    return exitCodes.usage;
  }
  for (const path of valid) out.write(`${path}: valid\n`);
  return exitCodes.completed;
}

function problemsOf(error: unknown): readonly ConfigFileProblem[] {
  const problems = (error as { problems?: readonly ConfigFileProblem[] }).problems;
  if (problems === undefined) throw error;
  return problems;
}

/** `config show`: every value in effect, secrets masked, each with where it came from. */
export function configShow(config: CliConfig, out: OutputStream): number {
  const rows: [string, string, string][] = [];
  const add = (key: string, value: unknown, source: string) => rows.push([key, format(key, value), source]);
  const { values, sources } = config;
  const detected = detectedProvider(config);
  const provider = values.provider ?? detected.name;
  const type = values.providers?.[provider]?.type ?? provider;
  add(
    'provider',
    provider,
    values.provider === undefined ? `default: ${detected.reason}` : sourceOf(config, 'provider'),
  );
  add(
    'model',
    values.model ?? values.providers?.[provider]?.model ?? defaultModels[type],
    values.model === undefined ? 'default' : sourceOf(config, 'model'),
  );
  add('orchestrator', values.orchestrator ?? 'agentic', sourceOf(config, 'orchestrator'));
  add('tools', values.tools ?? ['basic'], sourceOf(config, 'tools'));
  add('policy.profile', values.policy?.profile ?? 'standard', sourceOf(config, 'policy.profile'));
  add(
    'context_window',
    values.context_window ?? "(the model's own, when the provider knows it)",
    sourceOf(config, 'context_window'),
  );
  add('store', config.store, describeSource(sources.get('store') ?? { kind: 'default' }));
  add('log_level', values.log_level ?? '(none: runs are not logged)', sourceOf(config, 'log_level'));
  const shown = new Set([
    'provider',
    'model',
    'orchestrator',
    'tools',
    'policy.profile',
    'context_window',
    'store',
    'log_level',
  ]);
  for (const [key, source] of [...sources.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (shown.has(key)) continue;
    add(key, valueAt(values, key), describeSource(source));
  }
  out.write(
    '# agent-core configuration in effect: flags > environment > project file > user file > defaults\n',
  );
  out.write(`# user file:    ${config.userFile.path}${config.userFile.found ? '' : ' (not found)'}\n`);
  out.write(
    `# project file: ${config.project.config === undefined ? '(no .agent-core folder here or above)' : `${config.project.config}${config.project.found ? '' : ' (not found)'}`}\n`,
  );
  if (config.project.systemPrompt !== undefined && existsSync(config.project.systemPrompt))
    out.write(`# system prompt: ${config.project.systemPrompt}\n`);
  if (config.project.agents !== undefined) out.write(`# AGENTS.md:    ${config.project.agents}\n`);
  const width = Math.min(48, Math.max(...rows.map(([key, value]) => key.length + value.length + 3)));
  for (const [key, value, source] of rows) out.write(`${`${key} = ${value}`.padEnd(width)}  # ${source}\n`);
  return exitCodes.completed;
}

function sourceOf(config: CliConfig, key: string): string {
  const source = config.sources.get(key);
  return source === undefined ? 'default' : describeSource(source);
}

function valueAt(values: object, key: string): unknown {
  let value: unknown = values;
  for (const part of key.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
  return value;
}

// Keys whose values are secrets: API keys, header values, environment of MCP servers that looks like a token.
const secretKey = /(^|\.)(api_key|headers\.[^.]+)$|\.env\.[^.]*(key|token|secret|password|auth)[^.]*$/i;

function format(key: string, value: unknown): string {
  if (typeof value === 'string' && secretKey.test(key)) return JSON.stringify(maskedValue(value));
  if (typeof value === 'string') return JSON.stringify(maskUrl(value));
  if (typeof value === 'object' && value !== null) return maskUrl(inlineToml(value, key));
  return String(value);
}

/** A value as TOML on one line (an inline table or an array), secrets inside masked. */
function inlineToml(value: unknown, key: string): string {
  if (Array.isArray(value)) return `[${value.map((item) => inlineToml(item, key)).join(', ')}]`;
  if (typeof value === 'object' && value !== null) {
    const parts = Object.entries(value).map(([name, item]) => {
      const path = `${key}.${name}`;
      const text =
        typeof item === 'string' && secretKey.test(path)
          ? JSON.stringify(maskedValue(item))
          : inlineToml(item, path);
      return `${/^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name)} = ${text}`;
    });
    return `{ ${parts.join(', ')} }`;
  }
  return JSON.stringify(value);
}
