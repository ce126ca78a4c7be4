import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Finished, runCli } from './test-support/run-cli.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'agent-core-demo-data-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

/** The id `--session new` printed on stderr. */
function newSessionId(finished: Finished): string {
  const id = /new session (\S+) \(stored in /.exec(finished.stderr)?.[1];
  if (id === undefined) throw new Error(`no session id in: ${finished.stderr}`);
  return id;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

// Each test starts the binary as a process several times: generous on a loaded machine.
describe('agent-core sessions', { timeout: 30_000 }, () => {
  it('--session new stores the conversation; --session <id> in another process resumes it with its history', async () => {
    const first = await runCli(['chat', '--data-dir', dataDir, '--session', 'new', 'What is 6 * 7?']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('6 * 7 = 42.');
    const id = newSessionId(first);
    expect(first.stderr).toContain(`continue it with --session ${id}`);
    expect(readdirSync(join(dataDir, 'sessions'))).toEqual([id]);

    const second = await runCli(['chat', '--data-dir', dataDir, '--session', id, 'how many messages']);
    expect(second.code).toBe(0);
    // user, the calculator call, its result and the answer, then the new prompt.
    expect(second.stderr).toMatch(
      new RegExp(`session ${id} opened: 4 messages, last seq [1-9]\\d*, status idle`),
    );
    expect(second.stdout.trim()).toBe('I see 5 messages; before this you said: "What is 6 * 7?".');

    // The REPL resumes it too, and says so before taking input.
    const repl = await runCli(['--data-dir', dataDir, '--session', id], {
      stdin: 'how many messages\n/exit\n',
    });
    expect(repl.code).toBe(0);
    expect(repl.stderr).toContain(`session ${id} opened: 6 messages`);
    expect(repl.stdout).toContain('I see 7 messages; before this you said: "how many messages".');
  });

  it('every conversation is stored; --no-session keeps it in memory only', async () => {
    const stored = await runCli(['chat', '--data-dir', dataDir, 'What is 6 * 7?']);
    expect(stored.code).toBe(0);
    const id = /session ([0-9a-f-]{36})$/m.exec(stored.stderr)?.[1];
    expect(readdirSync(join(dataDir, 'sessions'))).toEqual([id]);
    const memory = await runCli(['chat', '--data-dir', dataDir, '--no-session', 'What is 6 * 7?']);
    expect(memory.code).toBe(0);
    expect(readdirSync(join(dataDir, 'sessions'))).toEqual([id]);
  });

  it('an id that was never stored is an error, never a new empty session', async () => {
    const { code, stdout, stderr } = await runCli(['chat', '--data-dir', dataDir, '--session', 'nope', 'hi']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      `agent-core: No session 'nope' is stored in ${join(dataDir, 'sessions')}. 'agent-core sessions list' shows the stored sessions; --session new starts one.`,
    );
    expect(existsSync(join(dataDir, 'sessions', 'nope'))).toBe(false);
    const bad = await runCli(['chat', '--data-dir', dataDir, '--session', '../etc', 'hi']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    expect(bad.stderr).toContain('agent-core: Session id "../etc" is not allowed');
  });

  it('sessions list shows the stored sessions newest first; AGENT_CORE_DATA_DIR chooses the folder', async () => {
    const env = { AGENT_CORE_DATA_DIR: dataDir };
    const empty = await runCli(['sessions', 'list'], { env });
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain(`No stored sessions in ${join(dataDir, 'sessions')}`);
    expect(empty.stdout).not.toContain('sessions/sessions');

    const older = newSessionId(await runCli(['chat', '--session', 'new', 'What is 2 + 2?'], { env }));
    const newer = newSessionId(await runCli(['chat', '--session', 'new', 'What is 3 * 3?'], { env }));
    // A later run on the older session makes it the newest.
    await runCli(['chat', '--session', older, 'how many messages'], { env });

    const { code, stdout } = await runCli(['sessions', 'list', '--data-dir', dataDir]);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^id\s+status\s+age\s+messages\s+title$/);
    expect(lines).toHaveLength(3);
    expect(new Set([lines[1]?.split(' ')[0], lines[2]?.split(' ')[0]])).toEqual(new Set([older, newer]));
    expect(lines[1]).toMatch(new RegExp(`^${older}\\s+idle\\s+\\d+ s ago\\s+6\\s+What is 2 \\+ 2\\?$`));
    expect(lines[2]).toMatch(new RegExp(`^${newer}\\s+idle\\s+\\d+ s ago\\s+4\\s+What is 3 \\* 3\\?$`));

    const wrong = await runCli(['sessions', 'show']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('sessions show needs a session id');
    const unknown = await runCli(['sessions', 'frob']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Use: agent-core sessions list | show | rm | repair');
  });

  it('a session whose process was killed during a tool call opens as interrupted; /resume continues it', async () => {
    const id = newSessionId(
      await runCli(['chat', '--data-dir', dataDir, '--session', 'new', 'What is 1 + 1?']),
    );
    const events = join(dataDir, 'sessions', id, 'events.jsonl');
    const killed = await runCli(
      [
        'chat',
        '--data-dir',
        dataDir,
        '--session',
        id,
        '--tools',
        'shell',
        '--yes',
        'call shell {"command":"sleep 30"}',
      ],
      {
        // Killed once the log shows the call started: log before execute.
        started: (child) =>
          void until(() => /"tool_started"[^\n]*"toolName":"shell"/.test(readFileSync(events, 'utf8'))).then(
            () => child.kill('SIGKILL'),
          ),
      },
    );
    expect(killed.code).toBe(null);

    // The run's process is gone, so its lease says the session was interrupted; nothing was loaded to list it.
    const listed = await runCli(['sessions', 'list', '--data-dir', dataDir]);
    expect(listed.stdout).toMatch(
      new RegExp(`${id}\\s+interrupted\\s+\\d+ s ago\\s+6\\s+What is 1 \\+ 1\\?`),
    );
    // sessions show says the same, read only: the session is not opened or repaired to say it.
    const shown = await runCli(['sessions', 'show', id.slice(0, 8), '--data-dir', dataDir]);
    expect(shown.stdout).toContain(`session ${id}  status interrupted, 6 messages`);
    const document = JSON.parse(
      (await runCli(['sessions', 'show', id, '--json', '--data-dir', dataDir])).stdout,
    ) as { status: string; messages: unknown[] };
    expect(document.status).toBe('interrupted');
    expect(document.messages).toHaveLength(6);

    const resumed = await runCli(['--data-dir', dataDir, '--session', id, '--tools', 'shell'], {
      stdin: '/resume\n/exit\n',
    });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(new RegExp(`session ${id} opened: 7 messages, .*status interrupted`));
    expect(resumed.stderr).toContain('this session was interrupted');
    expect(resumed.stdout).toContain(`(resuming the unfinished run of session ${id})`);
    // The call that was running when the process died was not run again: the repair gave it an error result.
    expect(resumed.stdout).toMatch(/Shell failed \(.*interrupted/i);

    const after = await runCli(['chat', '--data-dir', dataDir, '--session', id, 'how many messages']);
    expect(after.stderr).toContain('status idle');
    // The repaired result and the resumed answer are part of the history: 7 + 1, then the new prompt.
    expect(after.stdout.trim()).toBe(
      'I see 9 messages; before this you said: "call shell {"command":"sleep 30"}".',
    );
  });

  it('sessions list shows a session waiting for approval as await_user, from summaries alone', async () => {
    const paused = await runCli([
      'run',
      '--no-input',
      '--data-dir',
      dataDir,
      '--tools',
      'shell',
      'call shell {"command":"true"}',
    ]);
    expect(paused.code).toBe(3);
    const id = /session (\S+) waits for approval/.exec(paused.stdout)?.[1] as string;
    const listed = await runCli(['sessions', 'list', '--data-dir', dataDir]);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^${id}\\s+await_user\\s+\\d+ s ago\\s+\\d+\\s+call shell \\{"command":"true"\\} \\(1 waiting\\)$`,
        'm',
      ),
    );
  });

  it('sessions show renders the history; sessions rm deletes; unknown ids are refused', async () => {
    const id = newSessionId(
      await runCli(['chat', '--data-dir', dataDir, '--session', 'new', 'What is 6 * 7?']),
    );
    const shown = await runCli(['sessions', 'show', id, '--data-dir', dataDir]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`session ${id}  status idle, 4 messages`);
    expect(shown.stdout).toContain('> What is 6 * 7?');
    expect(shown.stdout).toContain('⚙ calculator {"expression":"6 * 7"}');
    expect(shown.stdout).toContain('✓ calculator → 42');
    expect(shown.stdout).toContain('6 * 7 = 42.');
    const removed = await runCli(['sessions', 'rm', id, '--data-dir', dataDir]);
    expect(removed.code).toBe(0);
    expect(existsSync(join(dataDir, 'sessions', id))).toBe(false);
    const again = await runCli(['sessions', 'show', id, '--data-dir', dataDir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/agent-core: .*not found|No session/i);
  });

  it('sessions repair cuts a damaged log back to its last consistent point and keeps a backup', async () => {
    const id = newSessionId(
      await runCli(['chat', '--data-dir', dataDir, '--session', 'new', 'What is 6 * 7?']),
    );
    await runCli(['chat', '--data-dir', dataDir, '--session', id, 'What is 2 + 2?']);
    const log = join(dataDir, 'sessions', id, 'events.jsonl');
    const lines = readFileSync(log, 'utf8').split('\n');
    // A line in the middle of the log is damaged, as a disk or an editor can leave it.
    lines[Math.floor(lines.length / 2)] = '{"seq": not json';
    writeFileSync(log, lines.join('\n'));
    const repaired = await runCli(['sessions', 'repair', id, '--data-dir', dataDir]);
    expect(repaired.code).toBe(0);
    expect(repaired.stdout).toMatch(
      new RegExp(`^Repaired session ${id}: kept \\d+ log records up to seq \\d+, dropped \\d+ records`, 'm'),
    );
    const backup = /The files as they were are in (.+)\.$/m.exec(repaired.stdout)?.[1] as string;
    expect(existsSync(backup)).toBe(true);
    const after = await runCli(['chat', '--data-dir', dataDir, '--session', id, 'how many messages']);
    expect(after.code).toBe(0);
  });

  it('/compact compacts the history sent on the next call; the stored history keeps every message', async () => {
    const long = 'word '.repeat(3000);
    const id = newSessionId(await runCli(['chat', '--data-dir', dataDir, '--session', 'new', `${long} 1`]));
    for (const index of [2, 3, 4, 5, 6])
      await runCli(['chat', '--data-dir', dataDir, '--session', id, `${long} ${index}`]);
    const repl = await runCli(['--data-dir', dataDir, '--session', id], {
      stdin: '/compact\nhow many messages\n',
    });
    expect(repl.code).toBe(0);
    expect(repl.stdout).toMatch(
      /the history sent \(about \d+ tokens\) is compacted to about \d+ before the next model call/,
    );
    expect(repl.stdout).toMatch(/⇣ compacted the history sent: \d+ → \d+ tokens/);
    // 12 stored messages and the prompt would be 13; the model was sent the summary and what was kept.
    const seen = Number(/I see (\d+) messages/.exec(repl.stdout)?.[1]);
    expect(seen).toBeLessThan(13);
    const shown = await runCli(['sessions', 'show', id, '--data-dir', dataDir]);
    expect(shown.stdout).toContain('status idle, 15 messages');
  });
});
