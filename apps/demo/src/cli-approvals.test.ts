import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Finished, makeHome, runCli } from './test-support/run-cli.js';

/** The session id and the waiting call a paused run printed. */
function paused(finished: Finished): { session: string; call: string } {
  const session = /session (\S+) waits for approval/.exec(finished.stdout)?.[1];
  const call = /^ {2}(\S+) {2}shell {2}risk execute/m.exec(finished.stdout)?.[1];
  if (session === undefined || call === undefined)
    throw new Error(`no pause in: ${finished.stdout}${finished.stderr}`);
  return { session, call };
}

const ran = (workspace: string) =>
  existsSync(join(workspace, 'ran.txt'))
    ? readFileSync(join(workspace, 'ran.txt'), 'utf8').split('\n').filter(Boolean).length
    : 0;

// Each test starts the binary as a process several times: generous on a loaded machine.
describe('agent-core approvals from anywhere', { timeout: 60_000 }, () => {
  it('a headless run pauses and exits 3; approvals lists it; approve in a new process runs the tool once; a second approve is refused', async () => {
    const home = makeHome();
    const options = { home, cwd: home };
    const prompt = 'call shell {"command":"echo once >> ran.txt"}';
    const headless = await runCli(['run', '--no-input', '--tools', 'shell', prompt], options);
    expect(headless.code).toBe(3);
    const { session, call } = paused(headless);
    expect(headless.stdout).toContain(`Decide from any terminal: agent-core approve ${session}`);
    expect(ran(home)).toBe(0);

    const inbox = await runCli(['approvals'], options);
    expect(inbox.code).toBe(0);
    expect(inbox.stdout).toContain(`session ${session}  ${prompt}`);
    expect(inbox.stdout).toMatch(
      new RegExp(`^ {2}${call} {2}shell {2}risk execute {2}\\{"command":"echo once >> ran\\.txt"\\}$`, 'm'),
    );
    expect(inbox.stdout).toContain("policy 'standard' says 'ask' for risk 'execute'");
    const listed = await runCli(['sessions', 'list'], options);
    expect(listed.stdout).toMatch(new RegExp(`^${session}\\s+await_user\\s+.*\\(1 waiting\\)$`, 'm'));

    // --tools without the call's tool: the call could only fail, so nothing runs, and it says why.
    const noTool = await runCli(['approve', session, '--tools', 'basic'], options);
    expect(noTool.code).toBe(2);
    expect(noTool.stderr).toContain(
      "the waiting call needs the tool 'shell', which this process does not have",
    );

    // From another folder and without --tools: the session's own packs, working where it was started.
    const elsewhere = join(home, 'elsewhere');
    mkdirSync(elsewhere);
    const approved = await runCli(['approve', session], { home, cwd: elsewhere });
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('✓ shell {"command":"echo once >> ran.txt"} → exit code 0');
    expect(ran(home)).toBe(1);
    expect(existsSync(join(elsewhere, 'ran.txt'))).toBe(false);

    const twice = await runCli(['approve', session, call, '--tools', 'shell'], options);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain(`${call} (shell) was already decided: it ran`);
    expect(twice.stderr).toContain('Nothing was run.');
    const nothing = await runCli(['approve', session, '--tools', 'shell'], options);
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toContain(
      `session ${session} has no tool call waiting for a decision (status idle)`,
    );
    const unknownCall = await runCli(['approve', session, 'no-such-call', '--tools', 'shell'], options);
    expect(unknownCall.code).toBe(2);
    expect(unknownCall.stderr).toContain("has no tool call 'no-such-call'");
    expect(ran(home)).toBe(1);
    expect((await runCli(['approvals'], options)).stdout).toContain('No session is waiting for a decision.');
  });

  it('approve --deny refuses the call with the reason, and the run goes on to an answer', async () => {
    const home = makeHome();
    const headless = await runCli(
      ['run', '--no-input', '--tools', 'shell', 'call shell {"command":"echo no >> ran.txt"}'],
      { home },
    );
    const { session } = paused(headless);
    const denied = await runCli(
      ['approve', session, '--deny', '--reason', 'not on a Friday', '--tools', 'shell'],
      { home },
    );
    expect(denied.code).toBe(0);
    expect(denied.stdout).toMatch(/✗ shell .* → .*not on a Friday/);
    expect(ran(home)).toBe(0);
  });

  it('two processes approving the same call at once run it exactly once; the other says it was decided elsewhere', async () => {
    const home = makeHome();
    const headless = await runCli(
      ['run', '--no-input', '--tools', 'shell', 'call shell {"command":"echo race >> ran.txt"}'],
      { home },
    );
    const { session } = paused(headless);
    const both = await Promise.all([
      runCli(['approve', session, '--tools', 'shell'], { home }),
      runCli(['approve', session, '--tools', 'shell'], { home }),
    ]);
    expect(ran(home)).toBe(1);
    expect(both.map((finished) => finished.code).sort()).toEqual([0, 1]);
    const loser = both.find((finished) => finished.code === 1) as Finished;
    const said = loser.stdout + loser.stderr;
    expect(said).toMatch(
      /already decided|Another process already decided|no tool call waiting|another process is running/,
    );
    // Said once, in the CLI's words: no library call to make.
    expect(said.match(/Another process already decided/g)?.length ?? 0).toBeLessThanOrEqual(1);
    expect(said).not.toMatch(/manager\.|\(\)/);
  });

  it('--json prints only events on stdout, one JSON object a line, also for a paused run', async () => {
    const home = makeHome();
    const result = await runCli(
      ['run', '--json', '--no-input', '--tools', 'shell', 'call shell {"command":"true"}'],
      { home },
    );
    expect(result.code).toBe(3);
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; seq: number; result?: { terminateReason: string } });
    expect(events[0]?.type).toBe('session');
    expect(events[1]?.type).toBe('agent_start');
    expect(events.at(-1)?.result?.terminateReason).toBe('await_user');
    expect(events.map((event) => event.type)).toContain('approval_request');
    expect(events.slice(1).map((event) => event.seq)).toEqual(events.slice(1).map((_, index) => index));
    // The pause is reported on stderr, so stdout stays parseable.
    expect(result.stderr).toMatch(/\[await_user\] session \S+ waits for approval/);
  });
});
