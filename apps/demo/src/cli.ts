#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { createInterface, type Interface } from 'node:readline';
import { Agent, AgentError, type AgentRun, type AnyTool } from '@agent-core/core';
import { type Ask, approveToolCall } from './approve-tool-call.js';
import { type CliArguments, parseCliArguments, UsageError, usage } from './parse-args.js';
import { noTextMessage, renderEvents } from './render-events.js';
import { connectMcp, resolveOrchestrator, resolveProvider, resolveTools } from './resolve-plugins.js';

const systemPrompt =
  'You are a helpful assistant running in the agent-core demo. Use the tools when they help, and answer briefly.';

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
  const terminal = new Terminal();
  const mcp = await connectMcp(args.mcp, (message) => process.stderr.write(`${message}\n`));
  try {
    const agent = await buildAgent(args, mcp.tools, terminal.ask);
    const listener = args.json
      ? (event: unknown) => process.stdout.write(`${JSON.stringify(event)}\n`)
      : renderEvents(process.stdout);
    agent.subscribe(listener);
    return await (args.command === 'chat' ? chat(agent, args.prompt, args.json) : repl(agent, terminal));
  } finally {
    await mcp.close();
  }
}

async function buildAgent(
  args: CliArguments,
  mcpTools: readonly AnyTool[],
  ask: Ask | undefined,
): Promise<Agent> {
  const resolved = await resolveProvider(
    args.provider,
    args.model,
    args.baseUrl,
    process.env,
    args.providerName,
  );
  if (resolved.notice !== undefined) process.stderr.write(`${resolved.notice}\n`);
  return new Agent({
    provider: resolved.provider,
    model: resolved.model,
    systemPrompt,
    tools: [...(await resolveTools(args.tools, process.cwd())), ...mcpTools],
    orchestrator: await resolveOrchestrator(args.orchestrator),
    hooks: { beforeToolCall: approveToolCall({ yes: args.yes, ask }) },
  });
}

async function chat(agent: Agent, prompt: string, json: boolean): Promise<number> {
  const run = agent.prompt(prompt);
  const stop = onInterrupt(run);
  const result = await run.result();
  stop();
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
const commands = '/reset, /exit';

async function repl(agent: Agent, terminal: Terminal): Promise<number> {
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
    'agent-core: type a message; while the agent works, a line steers it (commands never do). /reset clears, /exit quits.\n',
  );
  let running: AgentRun | undefined;
  const ask = () => {
    if (closed) return;
    if (running === undefined) input.setPrompt('> ');
    input.prompt();
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
      if (command === '/reset' && running !== undefined) {
        say('/reset was not sent to the model; it works between runs. Ctrl+C aborts the current run');
      } else if (command === '/reset') {
        agent.reset();
        say('history cleared');
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
    const run = agent.prompt(text);
    running = run;
    void run.result().then(() => {
      running = undefined;
      ask();
    });
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
