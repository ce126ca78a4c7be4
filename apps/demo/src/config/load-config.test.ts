import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkConfigFile } from './config-file.js';
import { ConfigFileError } from './config-file-error.js';
import { describeSource, mergeLayers } from './config-layers.js';
import { keyLines, lineOf } from './key-lines.js';
import { loadConfig } from './load-config.js';
import { maskSecrets } from './mask-secrets.js';
import { parseConfigText } from './read-config-file.js';

let home: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'agent-core-config-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const env = () => ({ HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') });

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

describe('config files', () => {
  it('keyLines finds the line of tables, dotted keys and keys after a multi-line string', () => {
    const lines = keyLines(
      'a = 1\n[providers.openai]\nbase_url = "x"\nnotes = """\nfake = 1\n"""\n"quoted key".inner = 2\n',
    );
    expect(lines.get('a')).toBe(1);
    expect(lines.get('providers.openai')).toBe(2);
    expect(lines.get('providers.openai.base_url')).toBe(3);
    expect(lines.has('providers.openai.fake')).toBe(false);
    expect(lines.get('providers.openai.quoted key.inner')).toBe(7);
    expect(lineOf(lines, ['providers', 'openai', 'missing'])).toBe(2);
  });

  it('checkConfigFile names each bad key, suggests a near known one, and accepts the documented shapes', () => {
    expect(
      checkConfigFile({
        provider: 'ollama',
        policy: { profile: 'strict', tools: { shell: 'ask' }, risk: { network: 'deny' } },
        providers: { ollama: { type: 'openai', base_url: 'http://127.0.0.1:11434/v1', model: 'llama3.1' } },
        aliases: { fast: 'claude-haiku-4-5', local: { provider: 'ollama', model: 'llama3.1' } },
        mcp_servers: {
          files: { command: 'npx', args: ['-y', 'x'], env: { A: 'b' } },
          web: { url: 'http://127.0.0.1:1/mcp' },
        },
      }),
    ).toEqual([]);
    expect(checkConfigFile({ orchestrater: 'react' })).toEqual([
      {
        path: ['orchestrater'],
        message: expect.stringContaining("unknown key (did you mean 'orchestrator'?)"),
      },
    ]);
    const issues = checkConfigFile({
      policy: { risk: { network: 'maybe' } },
      mcp_servers: { x: { args: [] } },
      tools: 'basic',
    });
    expect(issues.map((issue) => issue.path.join('.'))).toEqual([
      'policy.risk.network',
      'mcp_servers.x.command',
      'tools',
    ]);
  });

  it('[skills]: the documented keys pass; a wrong type is named with its file and line; --no-skills turns them off', async () => {
    expect(
      checkConfigFile({
        skills: { enabled: true, folders: ['~/team', 'skills'], user: false, allowed_tools: true },
      }),
    ).toEqual([]);
    try {
      parseConfigText(
        '/x/config.toml',
        '[skills]\nfolders = "one"\nallowed_tools = "yes"\nallowed_tool = true\n',
      );
      expect.unreachable();
    } catch (error) {
      expect((error as ConfigFileError).problems.map((problem) => [problem.line, problem.message])).toEqual([
        [2, expect.stringContaining("'skills.folders' must be an array of strings")],
        [3, expect.stringContaining("'skills.allowed_tools' must be true or false")],
        [4, expect.stringContaining("unknown key (did you mean 'allowed_tools'?)")],
      ]);
    }
    write(join(home, 'config', 'agent-core', 'config.toml'), '[skills]\nfolders = ["team"]\n');
    const config = await loadConfig({ env: env(), cwd: home, flags: { noSkills: true } });
    expect(config.values.skills).toEqual({ folders: ['team'], enabled: false });
    expect(config.sources.get('skills.enabled')).toEqual({ kind: 'flag', flag: '--no-skills' });
  });

  it('parseConfigText: a TOML error and a validation error both carry the file and line', () => {
    expect(() => parseConfigText('/x/config.toml', 'a = 1\nb = [\n')).toThrow(ConfigFileError);
    try {
      parseConfigText('/x/config.toml', '\n\n[providers.openai]\napi_kye = "k"\n');
    } catch (error) {
      expect((error as ConfigFileError).problems).toEqual([
        {
          path: '/x/config.toml',
          line: 4,
          message: expect.stringContaining(
            "'providers.openai.api_kye' unknown key (did you mean 'api_key'?)",
          ),
        },
      ]);
      expect((error as ConfigFileError).message).toMatch(/^\/x\/config\.toml:4: /);
      expect((error as ConfigFileError).code).toBe('invalid_config');
    }
  });

  it('mergeLayers: tables merge key by key, aliases and servers are replaced whole, a profile name is policy.profile', () => {
    const user = { kind: 'user-file', path: 'u', line: 1 } as const;
    const project = { kind: 'project-file', path: 'p', line: 2 } as const;
    const { values, sources } = mergeLayers([
      {
        config: {
          providers: { openai: { api_key: 'k', base_url: 'http://a/v1' } },
          mcp_servers: { files: { command: 'a', args: ['1'] } },
          policy: { profile: 'strict', tools: { shell: 'ask' } },
        },
        sourceOf: () => user,
      },
      {
        config: {
          providers: { openai: { base_url: 'http://b/v1' } },
          mcp_servers: { files: { url: 'http://c/mcp' } },
          policy: 'permissive',
        },
        sourceOf: () => project,
      },
    ]);
    expect(values.providers?.openai).toEqual({ api_key: 'k', base_url: 'http://b/v1' });
    expect(values.mcp_servers?.files).toEqual({ url: 'http://c/mcp' });
    expect(values.policy).toEqual({ profile: 'permissive', tools: { shell: 'ask' } });
    expect(sources.get('providers.openai.api_key')).toBe(user);
    expect(sources.get('providers.openai.base_url')).toBe(project);
    expect(sources.get('policy.profile')).toBe(project);
    expect(sources.has('mcp_servers.files.command')).toBe(false);
    expect(describeSource(project)).toBe('project file p:2');
  });

  it('loadConfig: flags over environment over project over user; the store defaults under the XDG data folder', async () => {
    write(
      join(home, 'config', 'agent-core', 'config.toml'),
      'model = "user"\norchestrator = "react"\nlog_level = "warn"\n',
    );
    const project = join(home, 'repo');
    write(join(project, '.agent-core', 'config.toml'), 'model = "project"\norchestrator = "plan-execute"\n');
    const nested = join(project, 'a', 'b');
    mkdirSync(nested, { recursive: true });
    const config = await loadConfig({
      env: { ...env(), AGENT_CORE_ORCHESTRATOR: 'agentic' },
      cwd: nested,
      flags: { logLevel: 'debug' },
    });
    expect(config.values).toMatchObject({ model: 'project', orchestrator: 'agentic', log_level: 'debug' });
    expect(describeSource(config.sources.get('model') as never)).toBe(
      `project file ${join(project, '.agent-core', 'config.toml')}:1`,
    );
    expect(config.sources.get('orchestrator')).toEqual({
      kind: 'environment',
      variable: 'AGENT_CORE_ORCHESTRATOR',
    });
    expect(config.sources.get('log_level')).toEqual({ kind: 'flag', flag: '--log-level' });
    expect(config.store).toBe(join(home, 'data', 'agent-core', 'sessions'));
    expect(config.project.root).toBe(project);
  });

  it('loadConfig: [worker] merges the file, AGENT_CORE_WORKER_CONCURRENCY and --concurrency key by key; bad values are named', async () => {
    write(join(home, 'config', 'agent-core', 'config.toml'), '[worker]\nconcurrency = 2\nlease_ms = 5000\n');
    const fromFile = await loadConfig({ env: env(), cwd: home });
    expect(fromFile.values.worker).toEqual({ concurrency: 2, lease_ms: 5000 });
    const fromEnvironment = await loadConfig({
      env: { ...env(), AGENT_CORE_WORKER_CONCURRENCY: '6' },
      cwd: home,
    });
    expect(fromEnvironment.values.worker).toEqual({ concurrency: 6, lease_ms: 5000 });
    const fromFlag = await loadConfig({ env: env(), cwd: home, flags: { concurrency: 8 } });
    expect(fromFlag.values.worker).toEqual({ concurrency: 8, lease_ms: 5000 });
    expect(fromFlag.sources.get('worker.concurrency')).toEqual({ kind: 'flag', flag: '--concurrency' });
    expect(
      checkConfigFile({ worker: { concurrency: 0, lease_ms: 'long', schema: 'bad-name', drain: 1 } }).map(
        (issue) => issue.path.join('.'),
      ),
    ).toEqual(['worker.concurrency', 'worker.lease_ms', 'worker.schema', 'worker.drain']);
    await expect(
      loadConfig({ env: { ...env(), AGENT_CORE_WORKER_CONCURRENCY: 'many' }, cwd: home }),
    ).rejects.toThrow(/AGENT_CORE_WORKER_CONCURRENCY/);
  });

  it('loadConfig: --base-url picks openai and its URL password is a secret; a bad variable is named', async () => {
    const config = await loadConfig({
      env: { ...env(), OPENAI_API_KEY: 'sk-test-key-123456' },
      cwd: home,
      flags: { baseUrl: 'http://me:pa55word@127.0.0.1:8080/v1' },
    });
    expect(config.values.provider).toBe('openai');
    expect(config.values.providers?.openai?.base_url).toBe('http://me:pa55word@127.0.0.1:8080/v1');
    expect(config.secrets).toEqual(expect.arrayContaining(['sk-test-key-123456', 'pa55word']));
    expect(
      maskSecrets('failed: http://me:pa55word@127.0.0.1:8080/v1 with sk-test-key-123456', config.secrets),
    ).toBe('failed: http://***@127.0.0.1:8080/v1 with [REDACTED]');
    await expect(
      loadConfig({ env: { ...env(), AGENT_CORE_CONTEXT_WINDOW: 'lots' }, cwd: home }),
    ).rejects.toThrow(/environment AGENT_CORE_CONTEXT_WINDOW: must be a positive whole number/);
    await expect(loadConfig({ env: env(), cwd: home, flags: { baseUrl: 'not a url' } })).rejects.toThrow(
      /flag --base-url: must be a URL/,
    );
  });
});
