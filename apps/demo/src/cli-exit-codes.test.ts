import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCompatibleServer } from './test-support/compatible-server.js';
import { makeHome, runCli } from './test-support/run-cli.js';

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

// Each test starts the binary as a process several times: generous on a loaded machine.
describe('agent-core exit codes and sessions across processes', { timeout: 60_000 }, () => {
  it('0 completed, 1 run error, 2 usage or config error, 3 waiting for approval', async () => {
    const home = makeHome();
    expect((await runCli(['chat', 'What is 1 + 1?'], { home })).code).toBe(0);
    const server = await startCompatibleServer({ reply: 'unauthorized' });
    const failed = await runCli(['chat', '--base-url', server.url, 'hi'], { home });
    await server.close();
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/Error: .*Invalid API key/);
    const keyless = await runCli(['chat', '--provider', 'anthropic', 'hi'], { home });
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain('set ANTHROPIC_API_KEY');
    const usage = await runCli(['chat', '--frobnicate', 'hi'], { home });
    expect(usage.code).toBe(2);
    expect(usage.stderr.trim().split('\n')).toHaveLength(1);
    const config = await runCli(['chat', '--policy', 'lenient', 'hi'], { home });
    expect(config.code).toBe(2);
    expect(config.stderr).toContain(
      "flag --policy: 'policy.profile' names no policy profile the CLI can load: 'lenient'; policy profiles: strict, standard, permissive",
    );
    expect(config.stderr).not.toMatch(/\n\s+at /);
    const waiting = await runCli(['run', '--no-input', '--tools', 'shell', 'call shell {"command":"true"}'], {
      home,
    });
    expect(waiting.code).toBe(3);
  });

  it('130 when Ctrl-C (SIGINT) interrupts a run; the session then resumes with a valid history', async () => {
    const home = makeHome();
    const data = join(home, '.local/share/agent-core/sessions');
    let id: string | undefined;
    const interrupted = await runCli(
      ['chat', '--session', 'new', '--tools', 'shell', '--yes', 'call shell {"command":"sleep 30"}'],
      {
        home,
        started: (child, output) =>
          void until(() => {
            id ??= /new session (\S+) \(stored in/.exec(output.stderr())?.[1];
            if (id === undefined) return false;
            try {
              return readFileSync(join(data, id, 'events.jsonl'), 'utf8').includes('"tool_started"');
            } catch {
              return false;
            }
          }).then(() => child.kill('SIGINT')),
      },
    );
    expect(interrupted.code).toBe(130);
    expect(interrupted.stdout).toContain('[aborted]');
    const after = await runCli(['chat', '--session', id as string, 'how many messages'], { home });
    expect(after.code).toBe(0);
    // The prompt, the call and its result (the abort answered it): a history a provider takes as it is.
    expect(after.stderr).toMatch(/opened: 3 messages, .*status idle/);
    expect(after.stdout.trim()).toBe(
      'I see 4 messages; before this you said: "call shell {"command":"sleep 30"}".',
    );
  });

  it('--continue resumes the latest session started in this folder, not one of another folder', async () => {
    const home = makeHome();
    const here = join(home, 'here');
    const there = join(home, 'there');
    mkdirSync(here);
    mkdirSync(there);
    expect((await runCli(['chat', 'What is 2 * 5?'], { home, cwd: here })).code).toBe(0);
    expect((await runCli(['chat', 'What is 3 * 5?'], { home, cwd: there })).code).toBe(0);
    const continued = await runCli(['chat', '--continue', 'how many messages'], { home, cwd: here });
    expect(continued.code).toBe(0);
    expect(continued.stdout.trim()).toBe('I see 5 messages; before this you said: "What is 2 * 5?".');
    const nowhere = await runCli(['chat', '-c', 'hi'], { home, cwd: home });
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain(`No stored session was started in ${home}`);
  });

  it('piped output and NO_COLOR carry no escape codes', async () => {
    const home = makeHome();
    for (const env of [{}, { NO_COLOR: '1', FORCE_COLOR: '1' }]) {
      const result = await runCli(['chat', 'Show me some markdown, then think about 6 * 7'], { home, env });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('# Markdown from the offline model');
      expect(result.stdout).not.toContain('\u001b');
      expect(result.stderr).not.toContain('\u001b');
    }
  });

  it('a base URL with a password and API keys never appear in errors, --json events or logs', async () => {
    const home = makeHome();
    const secretUrl = 'http://someone:p4ssw0rd-secret@127.0.0.1:9/v1';
    const key = 'sk-live-0123456789abcdefSECRET';
    const result = await runCli(['chat', '--json', '--log-level', 'debug', '--base-url', secretUrl, 'hi'], {
      home,
      env: { OPENAI_API_KEY: key },
    });
    expect(result.code).toBe(1);
    const all = result.stdout + result.stderr;
    expect(all).not.toContain('p4ssw0rd-secret');
    expect(all).not.toContain('someone');
    expect(all).not.toContain(key);
    for (const line of result.stdout.trim().split('\n')) JSON.parse(line);
  });
});
