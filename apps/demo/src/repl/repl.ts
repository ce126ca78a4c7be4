import { createInterface } from 'node:readline';
import type { AgentRun } from '@agent-core/core';
import { reportPause, summaryLine } from '../commands/run-outcome.js';
import type { RunIo } from '../commands/run-io.js';
import { exitCodes } from '../exit-codes.js';
import { cliWords } from '../output/cli-words.js';
import type { Conversation } from '../sessions/conversation.js';
import type { InputHistory } from './input-history.js';
import { type ReplContext, runReplCommand } from './repl-commands.js';
import type { Terminal } from './terminal.js';

// A line that starts with '/' and a letter is a REPL command: it is never sent to the model.
const commandPattern = /^\/[A-Za-z]/;

/** What the REPL is made of. */
export interface ReplOptions {
  conversation: Conversation;
  terminal: Terminal;
  history: InputHistory | undefined;
  io: RunIo;
}

/**
 * The interactive loop. A line typed while the agent works steers it; a
 * `/command` never reaches the model; Ctrl-C aborts the current run, and a
 * second Ctrl-C (or one with nothing running, twice) exits. Runs are stored
 * as they go, so any of them can be resumed after a crash.
 */
export async function repl(options: ReplOptions): Promise<number> {
  const { conversation, terminal, io } = options;
  const interactive = process.stdin.isTTY === true;
  const input = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: interactive,
    ...(interactive && options.history !== undefined
      ? { history: options.history.load(), historySize: 1000 }
      : {}),
  });
  terminal.repl = input;
  // Once input ends, the interface is closed and Node 24 throws from prompt(): never prompt after it.
  let closed = false;
  input.once('close', () => {
    closed = true;
    terminal.repl = undefined;
  });
  let running: AgentRun | undefined;
  // The current run has appended its prompt: a line typed now steers it, after the prompt.
  let started = false;
  // Lines typed while a run was starting or ending, in the order typed: they steer the run once
  // it has started, and the first of them is the next prompt when it ended.
  const held: string[] = [];
  // The end of the current run, and of the runs it hands held lines to.
  let tail: Promise<void> | undefined;
  let lastInterrupt = 0;
  let interrupted = false;
  const say = (text: string) => io.out.write(`  ${io.style.dim(`(${text})`)}\n`);
  const ask = () => {
    if (closed) return;
    input.setPrompt(running === undefined ? io.style.bold(io.style.cyan('> ')) : '');
    input.prompt();
  };
  const steer = (text: string) => {
    conversation.agent.steer(text);
    say('steering the current run');
  };
  const context: ReplContext = {
    conversation,
    io,
    say,
    running: () => running,
    start: (run) => start(run),
  };
  const start = (run: AgentRun) => {
    running = run;
    started = false;
    const unsubscribe = conversation.agent.subscribe((event) => {
      if (event.type !== 'turn_start' || started) return;
      started = true;
      for (const line of held.splice(0)) steer(line);
    });
    const finished = run.result().then(async (result) => {
      unsubscribe();
      started = false;
      try {
        io.errors.write(`${io.errorStyle.dim(summaryLine(result, storedId(conversation)))}\n`);
        io.tracer?.print(io.errors);
        if (result.terminateReason === 'await_user') {
          await reportPause(conversation.session, io.out, io.style);
          say('/approve or /deny decides here; a new prompt skips those calls');
        }
      } catch (error) {
        say(`after the run: ${(error as Error).message}`);
      }
      running = undefined;
      const next = interrupted ? undefined : held.shift();
      if (next !== undefined) start(conversation.prompt(next));
      else ask();
    });
    tail = finished;
    void finished.then(() => {
      if (tail === finished) tail = undefined;
    });
  };
  const quit = () => {
    interrupted = true;
    // A run that does not stop at once is not waited for: what it wrote so far is stored.
    if (running !== undefined) process.exit(exitCodes.interrupted);
    input.close();
  };
  input.on('SIGINT', () => {
    const now = Date.now();
    const twice = now - lastInterrupt < 2000;
    lastInterrupt = now;
    if (twice) return quit();
    if (running !== undefined) {
      held.length = 0;
      running.abort('interrupted by Ctrl-C');
      say('aborted; Ctrl-C again to exit');
      return;
    }
    input.write('', { ctrl: true, name: 'u' }); // clears a half-typed line
    say('Ctrl-C again to exit, or /exit');
    ask();
  });
  io.out.write(
    `${io.style.dim(`agent-core ${conversation.settings.provider.name}/${conversation.settings.provider.model}: type a message; while the agent works, a line steers it. /help lists commands, Ctrl-C aborts a run, twice exits.`)}\n`,
  );
  ask();
  for await (const line of input) {
    const text = line.trim();
    // Two Ctrl-C count as "twice" only with nothing typed between them.
    lastInterrupt = 0;
    if (text !== '') options.history?.add(line);
    if (text === '/exit' || text === '/quit') break;
    if (text === '') {
      ask();
      continue;
    }
    if (commandPattern.test(text)) {
      try {
        await runReplCommand(context, text);
      } catch (error) {
        say(`${text.split(/\s/, 1)[0]} failed: ${cliWords((error as Error).message)}`);
      }
      if (running === undefined) ask();
      continue;
    }
    if (running === undefined) start(conversation.prompt(text));
    else if (started && conversation.agent.isRunning) steer(text);
    else held.push(text);
  }
  // On /exit or the end of input, the current run finishes, and the lines still held run in order;
  // Ctrl-C twice is the way to stop at once.
  while (tail !== undefined && !interrupted) await tail;
  input.close();
  return interrupted ? exitCodes.interrupted : exitCodes.completed;
}

/** The session's id, for a summary line, when the session is stored (not `--no-session`). */
function storedId(conversation: Conversation): string | undefined {
  return conversation.store.kind === 'memory' ? undefined : conversation.session.id;
}
