import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startCompatibleServer } from './test-support/compatible-server.js';
import { makeHome, runCli } from './test-support/run-cli.js';

/** Runs the built binary as a user would, without any API key in its environment. */
function run(args: string[], stdin?: string, cwd?: string) {
  return runCli(args, { ...(stdin === undefined ? {} : { stdin }), ...(cwd === undefined ? {} : { cwd }) });
}

/** Runs the CLI with `args` and checks it refuses them as a usage error (code 2) saying `message`. */
async function expectRefused(args: string[], message: string): Promise<void> {
  const refused = await run(args);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain(message);
}

// Each test starts the binary as a process, some several times: generous on a loaded machine.
describe('agent-core binary', { timeout: 30_000 }, () => {
  it('chat answers offline with the calculator, a status line per tool call, and says it is offline', async () => {
    const { code, stdout, stderr } = await run(['chat', 'What is 15 * 3 and 10 + 5?']);
    expect(code).toBe(0);
    expect(stderr).toMatch(/running on the offline mock model/);
    // Piped: one plain line per tool call, with its input, outcome and duration.
    expect(stdout).toMatch(/^ {2}✓ calculator \{"expression":"15 \* 3"\} → 45 · \d+ ms$/m);
    expect(stdout).toContain('✓ calculator {"expression":"10 + 5"} → 15');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('15 * 3 = 45 and 10 + 5 = 15.');
    // The summary line goes to stderr, so stdout is the answer alone.
    expect(stderr).toMatch(/^2 turns · tokens \d+ in, \d+ out · \d+ ms · session [0-9a-f-]{36}$/m);
  });

  it.each(['react', 'plan-execute'])(
    '--orchestrator %s answers offline the same way',
    async (orchestrator) => {
      const { code, stdout } = await run([
        'chat',
        '--orchestrator',
        orchestrator,
        'What is 15 * 3 and 10 + 5?',
      ]);
      expect(code).toBe(0);
      expect(stdout).toContain('→ 45');
      expect(stdout).toContain('→ 15');
      expect(stdout.trimEnd().split('\n').at(-1)).toBe('15 * 3 = 45 and 10 + 5 = 15.');
    },
  );

  it('plan-execute picked mid-session sums up only the calls of its own plan', async () => {
    const home = makeHome();
    const first = await runCli(['chat', '--session', 'new', 'What time is it?'], { home });
    const id = /new session (\S+) \(stored in /.exec(first.stderr)?.[1] as string;
    const { code, stdout } = await runCli(
      ['chat', '--session', id, '--orchestrator', 'plan-execute', 'What is 2 + 3?'],
      { home },
    );
    expect(code).toBe(0);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('2 + 3 = 5.');
    expect(stdout).not.toContain('undefined');
  });

  it('--json prints every event as one JSON line, in order', async () => {
    const { code, stdout } = await run(['chat', '--json', 'What is 2 * 21?']);
    expect(code).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // The first line names the session and the run, so a script can resume or approve it.
    expect(events[0]).toEqual({
      type: 'session',
      sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      runId: events[1].runId,
      stored: true,
    });
    expect(events[1].type).toBe('agent_start');
    expect(events.at(-1).type).toBe('agent_end');
    expect(events.at(-1).result.text).toBe('2 * 21 = 42.');
    expect(events.slice(1).map((event: { seq: number }) => event.seq)).toEqual(
      events.slice(1).map((_: unknown, index: number) => index),
    );
    expect(events.filter((event: { type: string }) => event.type === 'tool_call_end')).toHaveLength(1);
  });

  it('the REPL answers each line and exits on /exit', async () => {
    const { code, stdout } = await run([], 'What is 6 * 7?\n/exit\n');
    expect(code).toBe(0);
    expect(stdout).toContain('6 * 7 = 42.');
  });

  it('--base-url talks to an OpenAI-compatible server without a key', async () => {
    const server = await startCompatibleServer();
    try {
      const { code, stdout, stderr } = await run([
        'chat',
        '--base-url',
        server.url,
        '--model',
        'llama3',
        'What is 6*7?',
      ]);
      expect(stderr).not.toMatch(/offline|agent-core:/);
      expect(code).toBe(0);
      expect(stdout).toContain('✓ calculator {"expression":"6*7"} → 42');
      expect(stdout.trimEnd().split('\n').at(-1)).toBe('The answer is 42');
      expect(server.requests).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('a chosen provider without its key is refused before anything runs, in CLI words', async () => {
    const { code, stdout, stderr } = await run(['chat', '--provider', 'anthropic', 'hi']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim()).toBe(
      'agent-core: The provider anthropic has no API key: set ANTHROPIC_API_KEY, or api_key in [providers.anthropic] of the config file. Or pick another with --provider (mock runs offline).',
    );
  });

  it('--mcp adds the tools of an MCP server; with no one to ask, a call that needs approval pauses the run', async () => {
    const server = `node ${fileURLToPath(new URL('./test-support/echo-mcp-server.mjs', import.meta.url))}`;
    const prompt = 'call mcp__echo {"text":"hello"}';
    const allowed = await run(['chat', '--mcp', server, '--yes', prompt]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toContain('✓ mcp__echo {"text":"hello"} → echo: hello');
    const paused = await run(['chat', '--mcp', server, prompt]);
    expect(paused.code).toBe(3);
    expect(paused.stdout).toMatch(/\[await_user\] session \S+ waits for approval of 1 tool call/);
    expect(paused.stdout).toMatch(/mcp__echo {2}risk execute {2}\{"text":"hello"\}/);
    expect(paused.stdout).not.toContain('echo: hello');
  });

  it('--tools fs,shell work in the current folder; writing needs approval', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'agent-core-demo-'));
    try {
      writeFileSync(join(workspace, 'note.txt'), 'hello world\n');
      const read = await run(
        [
          'chat',
          '--tools',
          'fs,shell',
          '--yes',
          'call read_file {"path":"note.txt"} and call shell {"command":"ls"}',
        ],
        '',
        workspace,
      );
      expect(read.code).toBe(0);
      expect(read.stdout).toContain('✓ read_file {"path":"note.txt"} → 1 hello world');
      expect(read.stdout).toMatch(/✓ shell \{"command":"ls"\} → exit code 0 <stdout> note\.txt/);
      const edit = 'call edit_file {"path":"note.txt","old_string":"hello","new_string":"goodbye"}';
      const paused = await run(['chat', '--tools', 'fs', edit], '', workspace);
      expect(paused.code).toBe(3);
      expect(readFileSync(join(workspace, 'note.txt'), 'utf8')).toBe('hello world\n');
      const allowed = await run(['chat', '--tools', 'fs', '--yes', edit], '', workspace);
      expect(allowed.code).toBe(0);
      expect(readFileSync(join(workspace, 'note.txt'), 'utf8')).toBe('goodbye world\n');
    } finally {
      rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('--help and --version', async () => {
    expect((await run(['--help'])).stdout).toMatch(/agent-core chat "<prompt>"/);
    expect((await run(['--version'])).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('bad input gets a clear message and exit code 2', async () => {
    const unknown = await run(['fly']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown command 'fly'/);
    const empty = await run(['chat']);
    expect(empty.stderr).toMatch(/chat needs a prompt/);
    const orchestrator = await run(['chat', '--orchestrator', 'nope', 'hi']);
    expect(orchestrator.code).toBe(2);
    expect(orchestrator.stderr).toContain(
      "flag --orchestrator: 'orchestrator' names no orchestrator the CLI can load: 'nope'; orchestrators: agentic, plan-execute, react",
    );
  });

  it('an unknown provider, orchestrator or tool pack lists every name the demo can load, not only imported ones', async () => {
    await expectRefused(
      ['chat', '--provider', 'nope', 'hi'],
      "flag --provider: 'provider' names no provider the CLI can load: 'nope'; providers: anthropic, mock, openai",
    );
    await expectRefused(['chat', '-o', 'nope', 'hi'], 'orchestrators: agentic, plan-execute, react');
    await expectRefused(
      ['chat', '-t', 'basic,nope', 'hi'],
      "flag --tools: 'tools' names no tool pack the CLI can load: 'nope'; tool packs: basic, fs, shell",
    );
    await expectRefused(['chat', '-t', 'mcp', 'hi'], "an MCP server's tools come from --mcp '<command>'");
  });

  it('an unknown flag gets a message with balanced quotes', async () => {
    const { code, stderr } = await run(['chat', '--nope', 'hi']);
    expect(code).toBe(2);
    const message = stderr.trim();
    expect(message).toBe(
      "agent-core: Unknown option '--nope'. Run 'agent-core --help' for the options; a prompt that starts with '-' goes after '--'.",
    );
    expect((message.match(/'/g) ?? []).length % 2).toBe(0);
  });

  it('REPL commands typed during a run are never sent to the model as steering', async () => {
    const { code, stdout, stderr } = await run([], 'What is 6 * 7?\n/reset\n/frobnicate now\n/exit\n');
    expect(stderr).not.toMatch(/ERR_USE_AFTER_CLOSE|Error/);
    expect(code).toBe(0);
    expect(stdout).toContain('(/reset was not sent to the model; it works between runs.');
    expect(stdout).toContain(
      '(unknown command /frobnicate, not sent to the model; /help lists the commands)',
    );
    expect(stdout).not.toContain('steering the current run');
    // The run went on undisturbed: no steering skipped its tool call or changed its answer.
    expect(stdout).toContain('✓ calculator {"expression":"6 * 7"} → 42');
    expect(stdout).toContain('6 * 7 = 42.');
  });

  it('a line that is not a command still steers the run', async () => {
    const { code, stdout } = await run([], 'What is 6 * 7?\nand then 1 + 1\n/exit\n');
    expect(code).toBe(0);
    expect(stdout).toContain('(steering the current run)');
  });

  it('an empty completed reply says the model returned no text and exits 1', async () => {
    const server = await startCompatibleServer({ reply: 'empty' });
    try {
      const { code, stdout } = await run(['chat', '--base-url', server.url, 'Say nothing']);
      expect(stdout.trim()).toBe('[no text] The model returned no text.');
      expect(code).toBe(1);
      const json = await run(['chat', '--json', '--base-url', server.url, 'Say nothing']);
      expect(json.code).toBe(1);
      expect(json.stderr).toContain('agent-core: The model returned no text.');
    } finally {
      await server.close();
    }
  });

  it('with --base-url, messages name the server by its host, or by --provider-name', async () => {
    const server = await startCompatibleServer({ reply: 'unauthorized' });
    const host = new URL(server.url).host;
    try {
      const byHost = await run(['chat', '--base-url', server.url, 'hi']);
      expect(byHost.code).toBe(1);
      expect(byHost.stdout).toContain(`Error: ${host}: HTTP 401`);
      expect(byHost.stdout).not.toMatch(/\bopenai\b/i);
      const named = await run(['chat', '--base-url', server.url, '--provider-name', 'local-llama', 'hi']);
      expect(named.stdout).toContain('Error: local-llama: HTTP 401');
    } finally {
      await server.close();
    }
  });

  it('REPL commands between runs: /followup queues, /model switches and keeps the conversation, /tools lists risks and sources', async () => {
    const { code, stdout } = await run(
      [],
      '/followup and then 5 + 5\n/model other-model\n/model mock/offline-mock\n/tools\n/help\nWhat is 6 + 6?\n',
    );
    expect(code).toBe(0);
    expect(stdout).toContain('(queued: it goes in before your next prompt)');
    expect(stdout).toContain(
      "(No model 'other-model' is configured, and mock does not know it: /model alone lists the models you can pick;",
    );
    expect(stdout).toContain('Still on mock, model offline-mock.)');
    expect(stdout).toContain('(now on mock, model offline-mock; the conversation goes on)');
    expect(stdout).toMatch(/calculator\s+read\s+pack basic/);
    expect(stdout).toContain('/followup TEXT');
    expect(stdout).toContain('↳ follow-up: and then 5 + 5');
    expect(stdout).toContain('6 + 6 = 12.');
  });
});
