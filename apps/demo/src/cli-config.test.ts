import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeHome, runCli } from './test-support/run-cli.js';

const userFile = (home: string) => join(home, '.config', 'agent-core', 'config.toml');

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

// Each test starts the binary as a process, some several times: generous on a loaded machine.
describe('agent-core config', { timeout: 30_000 }, () => {
  it('config init writes the commented template at the XDG path, which validates; a second init is refused', async () => {
    const home = makeHome();
    const init = await runCli(['config', 'init'], { home });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(`Wrote ${userFile(home)}`);
    const text = readFileSync(userFile(home), 'utf8');
    expect(text).toContain('# provider = "anthropic"');
    expect(text).toContain('# [mcp_servers.files]');
    const validate = await runCli(['config', 'validate'], { home });
    expect(validate.code).toBe(0);
    expect(validate.stdout).toContain(`${userFile(home)}: valid`);
    const again = await runCli(['config', 'init'], { home });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists');
    // XDG_CONFIG_HOME moves it.
    const elsewhere = join(home, 'elsewhere');
    const moved = await runCli(['config', 'init'], { home, env: { XDG_CONFIG_HOME: elsewhere } });
    expect(moved.stdout).toContain(join(elsewhere, 'agent-core', 'config.toml'));
  });

  it('config validate names a bad key with its file and line, and a malformed file with its line', async () => {
    const home = makeHome();
    write(
      userFile(home),
      '# mine\nprovider = "mock"\n\n[providers.openai]\nbase_url = "http://127.0.0.1:1/v1"\nmodle = "x"\n',
    );
    const typo = await runCli(['config', 'validate'], { home });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      `${userFile(home)}:6: 'providers.openai.modle' unknown key (did you mean 'model'?)`,
    );
    write(userFile(home), 'provider = "mock"\ncontext_window = "big"\n');
    const wrongType = await runCli(['config', 'validate'], { home });
    expect(wrongType.stderr).toContain(
      `${userFile(home)}:2: 'context_window' must be a positive whole number of tokens, got "big"`,
    );
    write(userFile(home), 'provider = "mock"\n[policy\nprofile = "strict"\n');
    const malformed = await runCli(['config', 'validate'], { home });
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(new RegExp(`${userFile(home).replace(/[.]/g, '\\.')}:2: invalid TOML`));
    // Any other command refuses to run on it, with the same one line and no stack trace.
    const chat = await runCli(['chat', 'hi'], { home });
    expect(chat.code).toBe(2);
    expect(chat.stderr).toMatch(/:2: invalid TOML/);
    expect(chat.stderr).not.toMatch(/\n\s+at /);
  });

  it('a hostile config file (huge, deeply nested, __proto__ keys, binary) gets a clear error, never a crash', async () => {
    const home = makeHome();
    const cases: [string, RegExp][] = [
      [`x = "${'a'.repeat(300 * 1024)}"\n`, /is 301 KiB; a config file may hold at most 256 KiB/],
      [`tools = ${'['.repeat(5000)}${']'.repeat(5000)}\n`, /:1: invalid TOML/],
      ['[__proto__]\npolluted = true\n', /:1: invalid TOML/],
      ['provider = "mock"\n\u0000\u0001\u0002garbage\n', /:2: invalid TOML/],
      [
        '[providers.x]\ntype = "openai"\nbase_url = "not a url"\n',
        /:3: 'providers\.x\.base_url' must be a URL/,
      ],
    ];
    for (const [text, message] of cases) {
      write(userFile(home), text);
      const result = await runCli(['config', 'validate'], { home });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr).not.toMatch(/\n\s+at |RangeError|TypeError/);
    }
    // A config "file" that is a device never ending is refused unread.
    rmSync(userFile(home));
    symlinkSync('/dev/zero', userFile(home));
    const device = await runCli(['chat', 'hi'], { home });
    expect(device.code).toBe(2);
    expect(device.stderr).toContain(`${userFile(home)}: is not a regular file`);
  });

  it('config show prints the merged values with their sources and masks keys and URL passwords', async () => {
    const home = makeHome();
    write(
      userFile(home),
      '[providers.openai]\napi_key = "sk-user-file-key-0123456789abcdef"\nbase_url = "http://alice:hunter2pass@127.0.0.1:9/v1"\n',
    );
    const { code, stdout } = await runCli(['config', 'show'], {
      home,
      env: { ANTHROPIC_API_KEY: 'sk-ant-environment-secret-key-9999' },
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^provider = "anthropic"\s+# default: an Anthropic API key is set$/m);
    expect(stdout).toMatch(
      /^providers\.anthropic\.api_key = "\*\*\*9999"\s+# environment ANTHROPIC_API_KEY$/m,
    );
    expect(stdout).toMatch(
      new RegExp(`^providers\\.openai\\.api_key = "\\*\\*\\*cdef"\\s+# user file ${userFile(home)}:2$`, 'm'),
    );
    expect(stdout).toContain('providers.openai.base_url = "http://***@127.0.0.1:9/v1"');
    expect(stdout).not.toContain('hunter2pass');
    expect(stdout).not.toContain('alice');
    expect(stdout).not.toContain('environment-secret');
    expect(stdout).not.toContain('user-file-key');
  });

  it('precedence: a flag over the environment over the project file over the user file', async () => {
    const home = makeHome();
    const project = join(home, 'work', 'project');
    const nested = join(project, 'src', 'deep');
    mkdirSync(nested, { recursive: true });
    write(
      userFile(home),
      'provider = "mock"\nmodel = "from-user"\norchestrator = "react"\ntools = ["basic"]\n',
    );
    write(
      join(project, '.agent-core', 'config.toml'),
      'model = "from-project"\norchestrator = "plan-execute"\n',
    );
    const show = (args: string[], env: Record<string, string> = {}) =>
      runCli(['config', 'show', ...args], { home, cwd: nested, env });
    const projectFile = join(project, '.agent-core', 'config.toml');
    const fromProject = await show([]);
    expect(fromProject.stdout).toMatch(
      new RegExp(`^model = "from-project"\\s+# project file ${projectFile}:1$`, 'm'),
    );
    expect(fromProject.stdout).toMatch(
      new RegExp(`^provider = "mock"\\s+# user file ${userFile(home)}:1$`, 'm'),
    );
    const fromEnvironment = await show([], { AGENT_CORE_MODEL: 'from-env' });
    expect(fromEnvironment.stdout).toMatch(/^model = "from-env"\s+# environment AGENT_CORE_MODEL$/m);
    const fromFlag = await show(['--model', 'from-flag'], { AGENT_CORE_MODEL: 'from-env' });
    expect(fromFlag.stdout).toMatch(/^model = "from-flag"\s+# flag --model$/m);
    // And a real run uses the winner: the project's orchestrator answers through its plan.
    const chat = await runCli(['chat', 'What is 2 * 3?'], { home, cwd: nested });
    expect(chat.code).toBe(0);
    expect(chat.stdout.trim().split('\n').at(-1)).toBe('2 * 3 = 6.');
    const flagged = await runCli(
      ['chat', '-o', 'agentic', '--model', 'from-flag', '--json', 'What is 2 * 3?'],
      { home, cwd: nested },
    );
    const starts = flagged.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((event: { type: string }) => event.type === 'message_start');
    expect(starts[0]).toMatchObject({ model: 'from-flag' });
  });

  it('a project .agent-core/system_prompt.md and AGENTS.md reach the system prompt', async () => {
    const home = makeHome();
    const project = join(home, 'repo');
    write(join(project, '.agent-core', 'system_prompt.md'), 'You are the repo bot of {{model}}.');
    write(join(project, 'AGENTS.md'), 'Run tests with npm test.');
    const { code, stdout } = await runCli(['chat', 'What is your system prompt?'], {
      home,
      cwd: join(project),
    });
    expect(code).toBe(0);
    expect(stdout).toContain('You are the repo bot of offline-mock.');
    expect(stdout).toContain('## Project instructions (AGENTS.md)\nRun tests with npm test.');
    expect(stdout).toContain(`## Workspace\nWorking directory: ${project}`);
    expect(stdout).not.toContain('running in the agent-core CLI');
    const show = await runCli(['config', 'show'], { home, cwd: project });
    expect(show.stdout).toContain(`# system prompt: ${join(project, '.agent-core', 'system_prompt.md')}`);
    expect(show.stdout).toContain(`# AGENTS.md:    ${join(project, 'AGENTS.md')}`);
  });
});
