#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { createInterface, type Interface } from 'node:readline';
import { AgentError, type AgentRun, type Logger, stderrLogger } from '@agent-core/core';
import { FileSessionStore } from '@agent-core/store-file';
import { runAcp } from './acp/run-acp.js';
import { agentOptions } from './agent-options.js';
import type { Ask } from './approve-tool-call.js';
import { sessionsDirectory } from './data-dir.js';
import { listSessions } from './list-sessions.js';
import { type Conversation, openConversation } from './open-conversation.js';
import { parseCliArguments, UsageError, usage } from './parse-args.js';
import { noTextMessage, renderEvents } from './render-events.js';
import { connectMcp } from './resolve-plugins.js';
import { type RunTracer, traceRuns } from './trace-runs.js';

async function main(argv: readonly string[]): Promise<number> {
  const args = parseCliArguments(argv);
  if (args.command === 'help') {
    process.stdout.write(usage);
    return 0;
  }
  if (args.command === 'version') {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    process.stdout.write(`${manifest.version}\n`);
    return 0;
  }
  if (args.command === 'acp') return runAcp(args);
  const root = sessionsDirectory(args.dataDir, process.env);
  // The run's records only with --log-level; the store's warnings (a corrupt file) always.
  const runLogger: Logger | undefined = args.logLevel === undefined ? undefined : stderrLogger(args.logLevel);
  const storeLogger = runLogger ?? stderrLogger('warn');
  if (args.command === 'sessions-list') {
    await listSessions(new FileSessionStore({ root, logger: storeLogger }), process.stdout, root);
    return 0;
  }
  const terminal = new Terminal();
  const mcp = await connectMcp(args.mcp, (message) => process.stderr.write(`${message}\n`));
  try {
    const options = await agentOptions(args, mcp.tools, terminal.ask, runLogger);
    const conversation = await openConversation(
      {
        session: args.session,
        root,
        logger: storeLogger,
        notify: (line) => process.stderr.write(`${line}\n`),
      },
      options,
    );
    const listener = args.json
      ? (event: unknown) => process.stdout.write(`${JSON.stringify(event)}\n`)
      : renderEvents(process.stdout);
    conversation.agent.subscribe(listener);
    const tracer = args.trace ? traceRuns(conversation.agent) : undefined;
    return await (args.command === 'chat'
      ? chat(conversation, args.prompt, args.json, tracer)
      : repl(conversation, terminal, tracer));
  } finally {
    await mcp.close();
  }
}

async function chat(
  conversation: Conversation,
  prompt: string,
  json: boolean,
  tracer: RunTracer | undefined,
): Promise<number> {
  const run = conversation.prompt(prompt);
  const stop = onInterrupt(run);
  const result = await run.result();
  stop();
  tracer?.print(process.stderr);
  if (result.terminateReason !== 'completed') return 1;
  // A command whose job is to print an answer did not get one: say so, and fail.
  if (result.text.trim() === '') {
    if (json) process.stderr.write(`agent-core: ${noTextMessage}\n`);
    return 1;
  }
  return 0;
}

function onInterrupt(run: AgentRun): () => void {
  const handler = () => run.abort();
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

/**
 * Questions to the person at the terminal. In the REPL they go through its
 * own readline, so an answer is never mistaken for a steering line.
 */
class Terminal {
  repl: Interface | undefined;
  readonly ask: Ask | undefined =
    process.stdin.isTTY === true
      ? (question) => {
          const current = this.repl;
          if (current !== undefined) return new Promise((resolve) => current.question(question, resolve));
          const once = createInterface({ input: process.stdin, output: process.stderr });
          return new Promise((resolve) =>
            once.question(question, (answer) => {
              once.close();
              resolve(answer);
            }),
          );
        }
      : undefined;
}

// A line that starts with '/' and a letter is a REPL command: it is never sent to the model.
const commandPattern = /^\/[A-Za-z]/;

async function repl(
  conversation: Conversation,
  terminal: Terminal,
  tracer: RunTracer | undefined,
): Promise<number> {
  const { agent, session } = conversation;
  // /resume means something only for a stored session.
  const commands = session === undefined ? '/reset, /exit' : '/reset, /resume, /exit';
  const input = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: process.stdin.isTTY === true,
  });
  terminal.repl = input;
  // Once input ends, the interface is closed and Node 24 throws from prompt();
  // a run finishing after that must not prompt again.
  let closed = false;
  input.once('close', () => {
    closed = true;
    terminal.repl = undefined;
  });
  const say = (text: string) => process.stdout.write(`  (${text})\n`);
  process.stdout.write(
    `agent-core: type a message; while the agent works, a line steers it (commands never do). ${session === undefined ? '/reset clears' : '/resume continues an interrupted run'}, /exit quits.\n`,
  );
  let running: AgentRun | undefined;
  const ask = () => {
    if (closed) return;
    if (running === undefined) input.setPrompt('> ');
    input.prompt();
  };
  const start = (run: AgentRun) => {
    running = run;
    void run.result().then(() => {
      running = undefined;
      tracer?.print(process.stderr);
      ask();
    });
  };
  input.on('SIGINT', () => {
    if (running !== undefined) running.abort();
    else input.close();
  });
  ask();
  for await (const line of input) {
    const text = line.trim();
    if (text === '/exit') break;
    if (text === '') {
      ask();
      continue;
    }
    if (commandPattern.test(text)) {
      const command = text.split(/\s/, 1)[0];
      if ((command === '/reset' || command === '/resume') && running !== undefined) {
        say(`${command} was not sent to the model; it works between runs. Ctrl+C aborts the current run`);
      } else if (command === '/reset' && session !== undefined) {
        // Clearing only this process's copy would come back on the next load: the store keeps the history.
        say(`the stored session ${session.id} keeps its history; start another with --session new`);
      } else if (command === '/reset') {
        agent.reset();
        say('history cleared');
      } else if (command === '/resume' && session?.status !== 'interrupted') {
        say('/resume continues an interrupted stored session; this one is not interrupted');
      } else if (command === '/resume') {
        start((session as NonNullable<typeof session>).resume());
        say(`resuming the interrupted run of session ${session?.id}`);
        continue;
      } else {
        say(`unknown command ${command}, not sent to the model. Commands: ${commands}`);
      }
      ask();
      continue;
    }
    if (running !== undefined) {
      agent.steer(text);
      say('steering the current run');
      continue;
    }
    start(conversation.prompt(text));
  }
  // On /exit or the end of input, let the current run finish; Ctrl+C is the way to abort it.
  if (running !== undefined) await (running as AgentRun).result();
  input.close();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const known = error instanceof UsageError || AgentError.isInstance(error);
    process.stderr.write(
      `agent-core: ${known ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`,
    );
    process.exitCode = 2;
  },
);
