import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newSessionState } from '@agent-core/core';
import { FileSessionStore } from '@agent-core/store-file';
import { describe, expect, it } from 'vitest';
import { startCompatibleServer } from './test-support/compatible-server.js';
import { type Finished, makeHome, runCli } from './test-support/run-cli.js';

// What a person who uses a coding CLI every day does first: pipes, prefixes, JSON for scripts,
// wrong names in the config, options in the wrong place. Each runs the CLI as a process.

function sessionOf(finished: Finished): string {
  const id = /session ([0-9a-f-]{36})/.exec(finished.stderr + finished.stdout)?.[1];
  if (id === undefined) throw new Error(`no session id in: ${finished.stderr}`);
  return id;
}

describe('agent-core for daily use', { timeout: 60_000 }, () => {
  it('takes the prompt from a pipe, from - and as context for an argument; refuses too much and too little', async () => {
    const home = makeHome();
    const piped = await runCli(['chat'], { home, stdin: 'What is 6 * 7?\n' });
    expect(piped.code).toBe(0);
    expect(piped.stdout.trimEnd().split('\n').at(-1)).toBe('6 * 7 = 42.');
    const dash = await runCli(['run', '-'], { home, stdin: 'What is 2 + 3?' });
    expect(dash.stdout.trimEnd().split('\n').at(-1)).toBe('2 + 3 = 5.');

    // The piped input comes first, as context, then the argument: both reach the model.
    const both = await runCli(['chat', 'compute this'], { home, stdin: '15 * 3\n' });
    expect(both.stdout.trimEnd().split('\n').at(-1)).toBe('15 * 3 = 45.');
    const stored = JSON.parse(
      (await runCli(['sessions', 'show', sessionOf(both), '--json'], { home })).stdout,
    ) as {
      messages: { role: string; content: unknown }[];
    };
    expect(stored.messages[0]).toEqual({ role: 'user', content: '15 * 3\n\ncompute this' });

    // A prompt too large for an argument goes through a pipe.
    const large = await runCli(['chat', 'What is 1 + 1?'], { home, stdin: 'x'.repeat(1_000_000) });
    expect(large.code).toBe(0);
    expect(large.stdout.trimEnd().split('\n').at(-1)).toBe('1 + 1 = 2.');
    const tooLarge = await runCli(['chat', 'hi'], { home, stdin: 'x'.repeat(5 * 1024 * 1024) });
    expect(tooLarge.code).toBe(2);
    expect(tooLarge.stderr.trim()).toMatch(/^agent-core: The prompt piped in is over 4 MiB.*head -c/);

    const none = await runCli(['chat'], { home, stdin: '' });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('chat needs a prompt: agent-core chat "What is 15 * 3?", or piped in');
  });

  it('REPL lines piped in at once are taken in order: the second steers the first run, after its prompt, and is answered', async () => {
    const home = makeHome();
    const { code, stdout, stderr } = await runCli([], { home, stdin: 'What is 5+5\nhow many messages\n' });
    expect(code).toBe(0);
    expect(stdout).toContain('(steering the current run)');
    expect(stdout).toContain('I see 4 messages; before this you said: "What is 5+5".');
    const stored = JSON.parse(
      (
        await runCli(['sessions', 'show', sessionOf({ code, stdout, stderr, signal: null }), '--json'], {
          home,
        })
      ).stdout,
    ) as {
      messages: { role: string; content: unknown }[];
    };
    const prompts = stored.messages
      .filter((message) => message.role === 'user')
      .map((message) => message.content);
    expect(prompts).toEqual(['What is 5+5', 'how many messages']);
  });

  it('the REPL history keeps typed lines, never a pasted document', async () => {
    const home = makeHome();
    const long = `What is 1 + 1? ${'x'.repeat(5000)}`;
    const { code } = await runCli([], { home, stdin: `What is 2 + 2?\n${long}\n/exit\n` });
    expect(code).toBe(0);
    const history = readFileSync(join(home, '.local/state/agent-core/history'), 'utf8');
    expect(history).toContain('What is 2 + 2?\n');
    expect(history).not.toContain('xxxxxxxx');
  });

  it('any unique prefix of a session or call id works; an ambiguous one lists the candidates; an unknown one exits 2', async () => {
    const home = makeHome();
    const root = join(home, '.local/share/agent-core/sessions');
    const store = new FileSessionStore({ root });
    for (const id of ['feed-0001', 'feed-0002']) {
      const state = newSessionState({ id });
      state.messages = [{ role: 'user', content: `prompt of ${id}` }];
      await store.save(state, { expectedVersion: 0 });
    }
    const ambiguous = await runCli(['sessions', 'show', 'feed'], { home });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(
      "'feed' is the start of 2 session ids: feed-0002 (prompt of feed-0002), feed-0001 (prompt of feed-0001). Give more of the id.",
    );
    const one = await runCli(['sessions', 'show', 'feed-0001'], { home });
    expect(one.stdout).toContain('> prompt of feed-0001');

    const paused = await runCli(
      ['run', '--no-input', '--tools', 'shell', 'call shell {"command":"echo ran"}'],
      {
        home,
      },
    );
    expect(paused.code).toBe(3);
    const id = /session (\S+) waits for approval/.exec(paused.stdout)?.[1] as string;
    const call = /^ {2}(\S+) {2}shell/m.exec(paused.stdout)?.[1] as string;
    const approved = await runCli(['approve', id.slice(0, 6), call.slice(0, 10), '--tools', 'shell'], {
      home,
    });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('✓ shell {"command":"echo ran"}');
    const resumed = await runCli(['chat', '--session', id.slice(0, 6), 'how many messages'], { home });
    expect(resumed.stderr).toContain(`session ${id} opened`);
    const replayed = await runCli(['replay', id.slice(0, 6), '--tools=recorded'], { home });
    expect(replayed.code).toBe(0);

    for (const command of ['show', 'rm', 'repair']) {
      const unknown = await runCli(['sessions', command, 'does-not-exist'], { home });
      expect(unknown.code).toBe(2);
      expect(unknown.stderr.trim()).toMatch(
        /^agent-core: No session 'does-not-exist' is stored in .*'agent-core sessions list'/,
      );
      expect(unknown.stdout).not.toContain('Deleted');
    }
    expect((await runCli(['sessions', 'rm', 'feed-0002'], { home })).stdout).toBe(
      'Deleted session feed-0002.\n',
    );
  });

  it('approvals, sessions list and sessions show print JSON documents with --json; chat --json starts with its session', async () => {
    const home = makeHome();
    const paused = await runCli(
      ['run', '--no-input', '--json', '--tools', 'shell', 'call shell {"command":"echo ran"}'],
      { home },
    );
    const first = JSON.parse(paused.stdout.split('\n')[0] as string) as { type: string; sessionId: string };
    expect(first.type).toBe('session');
    const id = first.sessionId;

    const inbox = JSON.parse((await runCli(['approvals', '--json'], { home })).stdout) as {
      sessions: { id: string; approvals: { toolName: string; input: unknown; risk: string }[] }[];
    };
    expect(inbox.sessions).toEqual([
      expect.objectContaining({
        id,
        approvals: [
          expect.objectContaining({ toolName: 'shell', input: { command: 'echo ran' }, risk: 'execute' }),
        ],
      }),
    ]);
    const listed = JSON.parse((await runCli(['sessions', 'list', '--json'], { home })).stdout) as {
      sessions: { id: string; status: string; pendingApprovalCount: number; cwd: string }[];
      more: boolean;
    };
    expect(listed.sessions[0]).toMatchObject({
      id,
      status: 'await_user',
      pendingApprovalCount: 1,
      cwd: home,
    });
    expect(listed.more).toBe(false);
    const shown = JSON.parse((await runCli(['sessions', 'show', id, '--json'], { home })).stdout) as {
      id: string;
      status: string;
      pendingApprovals: unknown[];
    };
    expect(shown).toMatchObject({ id, status: 'await_user' });
    expect(shown.pendingApprovals).toHaveLength(1);
  });

  it('config validate names every value the CLI cannot load with its file and line, and every command refuses to start on it', async () => {
    const home = makeHome();
    mkdirSync(join(home, '.config/agent-core'), { recursive: true });
    const file = join(home, '.config/agent-core/config.toml');
    writeFileSync(
      file,
      [
        'policy = "lenient"',
        'provider = "mokc"',
        'orchestrator = "reactt"',
        'tools = ["fss"]',
        '[aliases]',
        'fast = { provider = "ollama", model = "llama3.1" }',
      ].join('\n'),
    );
    const validated = await runCli(['config', 'validate'], { home });
    expect(validated.code).toBe(2);
    const lines = validated.stderr.trim().split('\n').sort();
    expect(lines).toEqual(
      [
        `${file}:1: 'policy.profile' names no policy profile the CLI can load: 'lenient'; policy profiles: strict, standard, permissive`,
        `${file}:2: 'provider' names no provider the CLI can load: 'mokc' (did you mean 'mock'?); providers: anthropic, mock, openai; another OpenAI-compatible server is a [providers.<name>] entry with type = "openai" and its base_url`,
        `${file}:3: 'orchestrator' names no orchestrator the CLI can load: 'reactt' (did you mean 'react'?); orchestrators: agentic, plan-execute, react`,
        `${file}:4: 'tools' names no tool pack the CLI can load: 'fss' (did you mean 'fs'?); tool packs: basic, fs, shell`,
        `${file}:6: 'aliases.fast' names no provider the CLI can load: 'ollama'; providers: anthropic, mock, openai; another OpenAI-compatible server is a [providers.<name>] entry with type = "openai" and its base_url`,
      ].sort(),
    );
    for (const args of [['chat', 'hi'], ['sessions', 'list'], ['approvals']]) {
      const refused = await runCli(args, { home });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${file}:2: 'provider' names no provider`);
    }
    writeFileSync(file, 'provider = "mock"\n');
    expect((await runCli(['config', 'validate'], { home })).stdout).toBe(`${file}: valid\n`);
  });

  it('switching providers and policy back and forth keeps the session usable; a switch that cannot work changes nothing', async () => {
    const server = await startCompatibleServer();
    const home = makeHome();
    mkdirSync(join(home, '.config/agent-core'), { recursive: true });
    writeFileSync(
      join(home, '.config/agent-core/config.toml'),
      ['[providers.local]', 'type = "openai"', `base_url = "${server.url}"`, 'model = "llama3"'].join('\n'),
    );
    const { code, stdout } = await runCli([], {
      home,
      stdin:
        '/provider local\n/policy strict\n/provider mock\n/provider anthropic\n/provider\nWhat is 1 + 1?\n',
    });
    await server.close();
    expect(code).toBe(0);
    expect(stdout).toContain('(now on local, model llama3; the conversation goes on)');
    expect(stdout).toContain('(policy strict from the next prompt on)');
    expect(stdout).toContain('(now on mock, model offline-mock; the conversation goes on)');
    expect(stdout).toContain(
      '(The provider anthropic has no API key: set ANTHROPIC_API_KEY, or api_key in [providers.anthropic] of the config file, then start agent-core again. Still on mock, model offline-mock.)',
    );
    expect(stdout).toMatch(/\/model local\/llama3\s/);
    expect(stdout).toContain('1 + 1 = 2.');
  });

  it('an option a command does not take is refused with the ones it takes', async () => {
    const limited = await runCli(['chat', '--limit', '3', 'hi']);
    expect(limited.code).toBe(2);
    expect(limited.stderr).toMatch(/^agent-core: chat does not take --limit; it takes --provider, --model, /);
    const json = await runCli(['--json']);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('the REPL does not');
  });
});
