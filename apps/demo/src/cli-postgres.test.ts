import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { usePostgresServer } from '@agent-core/test-support/postgres-server';
import { describe, expect, it } from 'vitest';
import { makeHome, runCli } from './test-support/run-cli.js';

// The CLI with its sessions in PostgreSQL: a real server, started for this file (or AGENT_CORE_PG_URL).
const { server } = usePostgresServer({ startTimeoutMs: 120_000 });

describe('agent-core --store postgres://', { timeout: 90_000 }, () => {
  it('a run paused in one process is listed and approved from another through the database; the tool runs once', async () => {
    // Each process points at the same database through the environment, as machines behind a load balancer would.
    const options = { home: makeHome(), env: { AGENT_CORE_STORE: server.url } };
    const prompt = 'call shell {"command":"echo once >> ran.txt"}';
    const headless = await runCli(['run', '--no-input', '--tools', 'shell', prompt], {
      ...options,
      cwd: options.home,
    });
    expect(headless.code).toBe(3);
    const session = /session (\S+) waits for approval/.exec(headless.stdout)?.[1] as string;
    expect(session).toBeDefined();
    // The password never reaches what the CLI prints.
    const password = new URL(server.url).password;
    expect(`${headless.stdout}${headless.stderr}`).not.toContain(password);

    // The session id is printed with a database store as with a folder: the pause names it, and chat's summary too.
    const chat = await runCli(['chat', '--session', 'new', 'What is 2 + 2?'], options);
    expect(chat.stderr).toMatch(/new session (\S+) \(stored in postgres:\/\/\*\*\*@/);
    const chatted = /new session (\S+) /.exec(chat.stderr)?.[1] as string;
    expect(chat.stderr).toContain(`· session ${chatted}`);
    const repl = await runCli([], { ...options, stdin: '/session\n' });
    expect(repl.stdout).toMatch(/\(session \S+ \(0 messages, stored in postgres:\/\/\*\*\*@/);
    const listed = await runCli(['sessions', 'list'], options);
    expect(listed.stdout).toMatch(new RegExp(`^${session}\\s+await_user\\s+.*\\(1 waiting\\)$`, 'm'));
    const inbox = await runCli(['approvals'], options);
    expect(inbox.stdout).toContain(`session ${session}  ${prompt}`);

    const approved = await runCli(['approve', session], options);
    expect(approved.code).toBe(0);
    const ran = join(options.home, 'ran.txt');
    expect(existsSync(ran) ? readFileSync(ran, 'utf8').trim().split('\n') : []).toEqual(['once']);
    const twice = await runCli(['approve', session, '--tools', 'shell'], options);
    expect(twice.code).toBe(1);
    const after = await runCli(['sessions', 'list'], options);
    expect(after.stdout).toMatch(new RegExp(`^${session}\\s+idle\\s`, 'm'));
  });

  it('a store URL that cannot be reached is one clear line without the password, exit code 2 or 1', async () => {
    const home = makeHome();
    const failed = await runCli(
      ['sessions', 'list', '--store', 'postgres://agent:s3cret-pass@127.0.0.1:9/none'],
      {
        home,
      },
    );
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toMatch(/^agent-core: .*127\.0\.0\.1:9/m);
    expect(`${failed.stdout}${failed.stderr}`).not.toContain('s3cret-pass');
    expect(failed.stderr.trim().split('\n')).toHaveLength(1);
  });
});
