import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, cliEnvironment, makeHome } from './test-support/run-cli.js';
import { hasTmux, TmuxSession } from './test-support/tmux.js';

// CI installs tmux (.ci/run) and must run these; a machine without it skips them.
const run = hasTmux || process.env.CI === 'true' ? describe : describe.skip;

let session: TmuxSession | undefined;
afterEach(() => {
  session?.close();
  session = undefined;
});

function start(args: string, home: string, env: Record<string, string> = {}): TmuxSession {
  const environment = cliEnvironment(home, { TERM: 'xterm-256color', ...env });
  session = new TmuxSession(`${process.execPath} ${cli} ${args}`, environment, home);
  return session;
}

// A person at a terminal, through a real pseudo-terminal: generous on a loaded machine.
run('agent-core REPL in a terminal', { timeout: 120_000 }, () => {
  it('answers, steers a slow tool call, lists tools, asks inline (once, later), aborts on Ctrl-C, exits on Ctrl-C twice', async () => {
    const home = makeHome();
    const repl = start('--tools basic,shell', home);
    await repl.waitFor('/help lists commands');

    // Waits for a run's summary line after what it printed, so the next line is a prompt, not steering.
    const untilRunEnds = (from: number) => repl.waitFor(/\d+ turns? · tokens \d+ in/, 20_000, from);
    repl.line('What is 6 * 7?');
    await repl.waitFor('6 * 7 = 42.');
    await untilRunEnds(0);

    // A slow call, approved inline once; a line typed while it runs steers the run:
    // the next call is skipped and the model answers the steering line.
    repl.line('call shell {"command":"sleep 4"} and call calculator {"expression":"1+1"}');
    await repl.waitFor('[y] yes, once');
    repl.line('y');
    await repl.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] shell \{"command":"sleep 4"\}/);
    repl.line('What is 2 * 21?');
    await repl.waitFor('(steering the current run)');
    await repl.waitFor(/↷ calculator \{"expression":"1\+1"\} skipped/);
    let mark = repl.screen().indexOf('What is 2 * 21?');
    const steered = await repl.waitFor('2 * 21 = 42.');
    expect(steered).toMatch(/✓ shell \{"command":"sleep 4"\} → exit code 0/);
    await untilRunEnds(mark);

    repl.line('/tools');
    const tools = await repl.waitFor(/shell\s+execute\s+pack shell/);
    expect(tools).toMatch(/calculator\s+read\s+pack basic/);
    expect(tools).toContain('policy standard');

    // Decide later: the run pauses and the session keeps the request; /approve decides it here.
    repl.line('call shell {"command":"echo decided-later"}');
    await repl.waitFor(/Allow shell \{"command":"echo decided-later"\}/);
    repl.line('l');
    await repl.waitFor(/\[await_user\] session \S+ waits for approval of 1 tool call/);
    await repl.waitFor('/approve or /deny decides here');
    mark = repl.screen().length;
    repl.line('/approve');
    await repl.waitFor(
      /✓ shell \{"command":"echo decided-later"\} → exit code 0 <stdout> decided-later/,
      20_000,
      mark,
    );
    await repl.waitFor('Shell said: exit code 0', 20_000, mark);
    await untilRunEnds(mark);

    // Ctrl-C aborts the run in progress; the REPL stays.
    repl.line('call shell {"command":"sleep 60"}');
    await repl.waitFor(/Allow shell \{"command":"sleep 60"\}/);
    repl.line('y');
    await repl.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] shell \{"command":"sleep 60"\}/);
    repl.send('C-c', { literal: false });
    await repl.waitFor('(aborted; Ctrl-C again to exit)');
    await repl.waitFor('[aborted]');
    await untilRunEnds(repl.screen().indexOf('[aborted]'));
    mark = repl.screen().length;
    repl.line('What is 1 + 2?');
    await repl.waitFor('1 + 2 = 3.', 20_000, mark);
    await untilRunEnds(mark);

    // Ctrl-C twice exits, with 130 as an interrupted command.
    repl.send('C-c', { literal: false });
    await repl.waitFor('(Ctrl-C again to exit, or /exit)');
    repl.send('C-c', { literal: false });
    await repl.waitFor('EXITED 130');

    // What was typed is kept for the next REPL (the up arrow).
    const history = readFileSync(join(home, '.local/state/agent-core/history'), 'utf8');
    expect(history).toContain('What is 6 * 7?\n');
    expect(history).toContain('/tools\n');
  });

  it('takes lines typed quickly in order, shows and refuses model switches, resumes a run Ctrl-C stopped, exits 130 on a second Ctrl-C during a run', async () => {
    const home = makeHome();
    const repl = start('--tools basic,shell', home);
    await repl.waitFor('/help lists commands');
    const runSlowCommand = async (from: number) => {
      repl.line('call shell {"command":"sleep 60"}');
      await repl.waitFor('[y] yes, once', 20_000, from);
      repl.line('y');
      await repl.waitFor(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] shell \{"command":"sleep 60"\}/, 20_000, from);
    };
    const untilRunEnds = (from: number) => repl.waitFor(/\d+ turns? · tokens \d+ in/, 20_000, from);

    // Two lines typed at once: the second steers the run of the first, after it, and is answered.
    repl.send('What is 5+5\rhow many messages\r');
    await repl.waitFor('(steering the current run)');
    await repl.waitFor(/I see \d+ messages; before this you said: "What is 5\+5"/);
    await untilRunEnds(0);

    // /model alone shows the choice and what can be picked; a model that cannot work is refused.
    let mark = repl.screen().length;
    repl.line('/model');
    await repl.waitFor('provider mock, model offline-mock. The configured models:', 20_000, mark);
    await repl.waitFor(/\/model mock\/offline-mock\s+\(current\)/, 20_000, mark);
    repl.line('/provider openai');
    await repl.waitFor(
      'The provider openai has no API key: set OPENAI_API_KEY, or api_key in [providers.openai] of the config file',
      20_000,
      mark,
    );
    await repl.waitFor('Still on mock, model offline-mock.', 20_000, mark);
    repl.line('/model gpt-9');
    await repl.waitFor("No model 'gpt-9' is configured, and mock does not know it", 20_000, mark);
    mark = repl.screen().length;
    repl.line('What is 2 + 2?');
    await repl.waitFor('2 + 2 = 4.', 20_000, mark);
    await untilRunEnds(mark);

    // Ctrl-C stops a run before its answer; /resume continues it.
    mark = repl.screen().length;
    await runSlowCommand(mark);
    repl.send('C-c', { literal: false });
    await repl.waitFor('[aborted]', 20_000, mark);
    await untilRunEnds(mark);
    mark = repl.screen().length;
    repl.line('/resume');
    await repl.waitFor('(resuming the unfinished run of session', 20_000, mark);
    await repl.waitFor(/Shell failed \(Tool 'shell' was stopped/, 20_000, mark);
    await untilRunEnds(mark);

    // A second Ctrl-C during a run exits at once with 130, the run not waited for.
    mark = repl.screen().length;
    await runSlowCommand(mark);
    repl.send('C-c', { literal: false });
    repl.send('C-c', { literal: false });
    await repl.waitFor('EXITED 130', 20_000, mark);
  });

  it('renders markdown and colours on a terminal; with NO_COLOR there is not one escape code', async () => {
    const home = makeHome();
    const rich = start('chat "Show me some markdown"', home);
    await rich.waitFor('EXITED 0');
    const coloured = rich.screen(true);
    expect(coloured).toContain('\u001b[');
    expect(rich.screen()).toContain('• first item');
    expect(rich.screen()).not.toContain('**bold**');
    rich.close();

    const plain = start('chat "Show me some markdown"', home, { NO_COLOR: '1' });
    await plain.waitFor('EXITED 0');
    expect(plain.screen(true)).not.toContain('\u001b');
    expect(plain.screen()).toContain('# Markdown from the offline model');
  });
});
