import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeHome, runCli } from './test-support/run-cli.js';

// `agent-core replay SESSION` as a real process on the file store: a stored session re-run offline
// with today's prompt, tools and orchestrator against its recorded replies.

/** A session stored by `chat` in a home of its own; its id and where its files are. */
async function storedSession(prompt: string, args: string[] = []) {
  const home = makeHome();
  const chat = await runCli(['chat', '--session', 'new', ...args, prompt], { home, cwd: home });
  expect(chat.code).toBe(0);
  const id = /continue it with --session (\S+)/.exec(chat.stderr)?.[1] as string;
  expect(id).toBeDefined();
  return { home, id, folder: join(home, '.local/share/agent-core/sessions', id) };
}

/** The bytes of every file of a session's folder, to prove a replay wrote nothing. */
function filesOf(folder: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(folder).map((name) => [name, readFileSync(join(folder, name), 'utf8')]),
  );
}

describe('agent-core replay', { timeout: 90_000 }, () => {
  it('reproduces a stored session, and says where it diverges once the system prompt changed', async () => {
    const { home, id, folder } = await storedSession('What is 15 * 3 and 10 + 5?');
    const before = filesOf(folder);
    const same = await runCli(['replay', id], { home, cwd: home });
    expect(same.code).toBe(0);
    expect(same.stdout).toContain('prompt 1 "What is 15 * 3 and 10 + 5?": 2 model calls, 2 tool calls');
    expect(same.stdout).toContain(
      `Reproduced: 2 model calls and the tool calls as recorded in session ${id}.`,
    );
    expect(same.stderr).toContain(`replaying session ${id} (5 messages, 2 model calls) offline`);

    // The project's system prompt changes after the session was recorded.
    mkdirSync(join(home, '.agent-core'));
    writeFileSync(join(home, '.agent-core', 'system_prompt.md'), 'You are a terse calculator.');
    const changed = await runCli(['replay', id], { home, cwd: home });
    expect(changed.code).toBe(1);
    expect(changed.stdout).toContain('Diverged: model call 1 sends a request the session never sent.');
    expect(changed.stdout).toMatch(
      / {2}system:\n {4}before: "You are a helpful assistant running in agent-core\./,
    );
    expect(changed.stdout).toMatch(/ {4}after: {2}"You are a terse calculator\./);
    expect(filesOf(folder)).toEqual(before);
  });

  it('names the tool call whose result changed, and reproduces with --tools=recorded', async () => {
    const home = makeHome();
    writeFileSync(join(home, 'note.txt'), 'buy milk');
    const chat = await runCli(
      ['chat', '--session', 'new', '--tools', 'fs', 'call read_file {"path":"note.txt"}'],
      { home, cwd: home },
    );
    expect(chat.code).toBe(0);
    const id = /continue it with --session (\S+)/.exec(chat.stderr)?.[1] as string;
    expect((await runCli(['replay', id], { home })).code).toBe(0);

    writeFileSync(join(home, 'note.txt'), 'buy bread');
    const diverged = await runCli(['replay', id, '--json'], { home });
    expect(diverged.code).toBe(1);
    const report = JSON.parse(diverged.stdout);
    expect(report).toMatchObject({
      session: id,
      reproduced: false,
      divergence: { modelCall: 2, nearest: 2 },
      toolDifferences: [
        {
          call: 1,
          before: { name: 'read_file', input: { path: 'note.txt' }, isError: false },
          after: { name: 'read_file', input: { path: 'note.txt' }, isError: false },
        },
      ],
    });
    expect(report.divergence.differences[0]).toMatchObject({
      path: 'messages[2].content',
      label: "messages[2] (toolResult of call_1 'read_file')",
    });
    expect(JSON.stringify(report.toolDifferences)).toContain('buy milk');
    expect(JSON.stringify(report.toolDifferences)).toContain('buy bread');
    const text = await runCli(['replay', id], { home });
    expect(text.stdout).toContain('Tool calls that differ:\n  call 1 read_file {"path":"note.txt"}:');

    // Answered from the log, the call reads nothing: the run is the recorded one.
    const recorded = await runCli(['replay', id, '--tools=recorded'], { home });
    expect(recorded.code).toBe(0);
    expect(recorded.stdout).toContain('Reproduced');
  });

  it('asks about a call that needs approval as chat does; answered from the session, nothing is asked', async () => {
    const home = makeHome();
    const chat = await runCli(
      [
        'chat',
        '--session',
        'new',
        '--tools',
        'shell',
        '--yes',
        'call shell {"command":"echo ran >> ran.txt"}',
      ],
      { home, cwd: home },
    );
    expect(chat.code).toBe(0);
    const id = /continue it with --session (\S+)/.exec(chat.stderr)?.[1] as string;
    const ran = () => readFileSync(join(home, 'ran.txt'), 'utf8').trim().split('\n');
    expect(ran()).toEqual(['ran']);

    const paused = await runCli(['replay', id], { home });
    expect(paused.code).toBe(1);
    expect(paused.stdout).toContain('prompt 1 paused: a tool call needs approval and no one could give it');
    expect(ran()).toEqual(['ran']);
    const recorded = await runCli(['replay', id, '--tools=recorded'], { home });
    expect(recorded.code).toBe(0);
    expect(ran()).toEqual(['ran']);
    // Allowed, the command runs for real, in the session's folder.
    const allowed = await runCli(['replay', id, '--yes'], { home });
    expect(allowed.code).toBe(0);
    expect(ran()).toEqual(['ran', 'ran']);
  });

  it('--update re-records the prompts into a new session and leaves the old one as it was', async () => {
    const { home, id, folder } = await storedSession('What is 6 * 7?');
    const before = filesOf(folder);
    const updated = await runCli(['replay', id, '--update'], { home, cwd: home });
    expect(updated.code).toBe(0);
    const fresh = new RegExp(`Re-recorded session ${id} as session (\\S+): 2 model calls`).exec(
      updated.stdout,
    )?.[1];
    expect(fresh).toBeDefined();
    expect(updated.stdout).toContain('Its requests are the same as the recorded ones.');
    expect(filesOf(folder)).toEqual(before);
    const list = await runCli(['sessions', 'list'], { home });
    expect(list.stdout).toContain(id);
    expect(list.stdout).toContain(fresh as string);
    expect((await runCli(['replay', fresh as string], { home })).code).toBe(0);
  });

  it('an unknown session is exit code 2; a damaged log is replayed up to the damage, which is named', async () => {
    const { home, id, folder } = await storedSession('What is 15 * 3?');
    const unknown = await runCli(['replay', 'no-such-session'], { home });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("No session 'no-such-session' is stored in");

    // A second prompt, then its last complete record is damaged on disk.
    expect((await runCli(['chat', '--session', id, 'What is 2 + 2?'], { home, cwd: home })).code).toBe(0);
    const log = join(folder, 'events.jsonl');
    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    const damaged = lines.length - 2;
    lines[damaged] = '{"seq": not a record';
    writeFileSync(log, `${lines.join('\n')}\n`);
    const replayed = await runCli(['replay', id], { home });
    expect(replayed.stderr).toContain(`agent-core: session ${id} is damaged at ${log}`);
    expect(replayed.stderr).toContain(`line ${damaged + 1} is not a log record`);
    // Everything before the damaged line is replayed: both prompts, the second one's answer lost with the line.
    expect(replayed.code).toBe(0);
    expect(replayed.stderr).toContain('Replaying the 7 messages before it.');
    expect(replayed.stdout).toContain('prompt 1 "What is 15 * 3?": 2 model calls, 1 tool call');
    expect(replayed.stdout).toContain('prompt 2 "What is 2 + 2?": 1 model call, 1 tool call');
    expect(replayed.stdout).toContain(
      `Reproduced: 3 model calls and the tool calls as recorded in session ${id}, up to where its log is damaged.`,
    );
    expect(readFileSync(log, 'utf8')).toContain('{"seq": not a record');
  });
});
