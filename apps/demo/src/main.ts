import { join } from 'node:path';
import { type AgentEvent, ConfigError, type Logger, stderrLogger } from '@agent-core/core';
import { resolveSettings } from './agent-settings.js';
import { allowEverything, inlineApprover } from './approvals/inline-approver.js';
import { approveCommand } from './commands/approve-command.js';
import { approvalsCommand } from './commands/approvals-command.js';
import { chatCommand } from './commands/chat-command.js';
import { defaultStudioPort } from './commands/studio-port.js';
import { configInit, configShow, configValidate } from './commands/config-commands.js';
import { approveQueued, type QueueIo, runQueued } from './commands/queue-commands.js';
import { readPrompt } from './commands/read-prompt.js';
import type { RunIo } from './commands/run-io.js';
import { listSessions, removeSession, repairSession, showSession } from './commands/sessions-commands.js';
import { type CliConfig, loadConfig } from './config/load-config.js';
import { maskSecrets } from './config/mask-secrets.js';
import { missingKey } from './make-agent/model-choices.js';
import { stateDirectory } from './config/xdg-paths.js';
import { EventRenderer } from './output/render-events.js';
import { isRich, styleFor } from './output/terminal-style.js';
import type { CliArguments } from './parse-args.js';
import { InputHistory } from './repl/input-history.js';
import { Terminal } from './repl/terminal.js';
import { Conversation, type SessionChoice } from './sessions/conversation.js';
import { findSession } from './sessions/find-session.js';
import { type OpenedStore, openStore } from './sessions/open-store.js';

/** Resolves with what asked the worker to stop (SIGTERM, Ctrl-C); a second ask calls `force`. */
function stopRequested(force: () => void): Promise<string> {
  return new Promise((resolve) => {
    let asked = false;
    const ask = (signal: NodeJS.Signals) => {
      if (asked) return force();
      asked = true;
      resolve(signal === 'SIGINT' ? 'Ctrl-C' : signal);
    };
    process.on('SIGTERM', ask);
    process.on('SIGINT', ask);
  });
}

/**
 * Runs every command but `--help` and `--version`: reads the configuration
 * (`loadConfig`, the one place every command gets its settings from), then
 * does what the command asks. Errors leave with the configuration's secrets masked.
 */
export async function main(args: CliArguments): Promise<number> {
  const env = process.env;
  const cwd = process.cwd();
  // These two read the files themselves, so a broken file never stops them.
  if (args.command === 'config-init') return configInit(args, env, cwd, process.stdout);
  if (args.command === 'config-validate') return configValidate(env, cwd, process.stdout, process.stderr);
  const config = await loadConfig({ flags: args.flags, env, cwd });
  try {
    return await run(args, config);
  } catch (error) {
    throw masked(error, config.secrets);
  }
}

async function run(args: CliArguments, config: CliConfig): Promise<number> {
  const out = process.stdout;
  const level = config.values.log_level;
  // The run's records only with a log level; the store's warnings (a corrupt file) always.
  const runLogger = level === undefined ? undefined : maskingLogger(stderrLogger(level), config.secrets);
  const storeLogger = runLogger ?? maskingLogger(stderrLogger('warn'), config.secrets);
  if (args.command === 'config-show') return configShow(config, out);
  if (args.command === 'skills-list' || args.command === 'skills-validate') {
    const { listSkills, validateSkillFolders } = await import('./commands/skills-commands.js');
    const style = styleFor(out, process.env);
    return args.command === 'skills-list'
      ? listSkills(config, config.cwd, out, style)
      : validateSkillFolders(config, config.cwd, args.target, out, style);
  }
  // A prompt that is missing or too large is refused before anything is opened.
  const prompt = args.command === 'chat' ? await readPrompt(args) : '';
  // stdout carries only the protocol: the server logs to stderr, at warn unless a level is set.
  if (args.command === 'acp')
    return (await import('./acp/run-acp.js')).runAcp(
      config,
      { store: storeLogger, run: runLogger },
      (message) => process.stderr.write(`agent-core: ${maskSecrets(message, config.secrets)}\n`),
    );
  if (args.command === 'worker') {
    const { workerCommand } = await import('./commands/worker-command.js');
    return workerCommand(
      config,
      { runLogger, storeLogger },
      { out, errors: process.stderr, json: args.json, stopRequested },
    );
  }
  const store = await openStore(args.noSession ? 'memory:' : config.store, storeLogger);
  try {
    return await runCommand({ ...args, prompt }, config, store, { runLogger, storeLogger });
  } finally {
    // A database store's connections end with the command; a process never waits on them.
    await store.close();
  }
}

async function runCommand(
  args: CliArguments,
  config: CliConfig,
  store: OpenedStore,
  loggers: { runLogger: Logger | undefined; storeLogger: Logger },
): Promise<number> {
  const out = process.stdout;
  const { runLogger, storeLogger } = loggers;
  const style = styleFor(out, process.env);
  switch (args.command) {
    case 'sessions-list':
      return listSessions(store, args.limit ?? 50, out, Date.now(), args.json);
    case 'sessions-show': {
      const rich = !args.json && isRich(out, process.env);
      const { renderMarkdown } = rich ? await import('./output/markdown.js') : { renderMarkdown: undefined };
      return showSession(store, args.target as string, out, {
        style: args.json ? styleFor(out, { NO_COLOR: '1' }) : style,
        renderText: (text) => renderMarkdown?.(text, style) ?? text,
        json: args.json,
      });
    }
    case 'sessions-rm':
      return removeSession(store, args.target as string, out);
    case 'sessions-repair':
      return repairSession(store, args.target as string, out);
    case 'approvals':
      return approvalsCommand(store.store, out, style, Date.now(), args.json);
    case 'studio':
      return (await import('./commands/studio-command.js')).studioCommand(
        config,
        store,
        { port: args.port ?? defaultStudioPort, host: args.host, open: args.open },
        loggers,
      );
  }
  // A session id given by its start is the whole id from here on, for the queue as for this process.
  if (args.command === 'approve')
    args = { ...args, target: (await findSession(store, args.target as string, { summary: false })).id };
  // Runs the workers serve: enqueued here, run there; Ctrl-C stops the waiting, never the run.
  if ((args.command === 'chat' && args.queue) || args.command === 'approve') {
    const waiting = new AbortController();
    const stop = () => waiting.abort();
    process.once('SIGINT', stop);
    try {
      const io: QueueIo = { out, errors: process.stderr, json: args.json, signal: waiting.signal };
      if (args.command === 'chat') return await runQueued(config, store, args, io, storeLogger);
      const queued = await approveQueued(config, store, args, io, storeLogger);
      if (queued !== undefined) return queued;
    } finally {
      process.removeListener('SIGINT', stop);
    }
  }
  const rich = !args.json && isRich(out, process.env);
  const renderer = args.json
    ? undefined
    : await EventRenderer.create({ out, rich, showThinking: !args.hideThinking });
  const terminal = new Terminal();
  const canAsk = !args.noInput && process.stdin.isTTY === true;
  const approve = args.yes
    ? allowEverything
    : canAsk
      ? inlineApprover(async (question, signal) => {
          renderer?.pause();
          const answer = await terminal.ask(question, signal);
          renderer?.resume();
          return answer;
        }, renderer?.style ?? style)
      : undefined;
  const settings = await resolveSettings(config, {
    ...(approve === undefined ? {} : { approve }),
    ...(runLogger === undefined ? {} : { logger: runLogger }),
    compact: !args.noCompact,
    warn: (message) => process.stderr.write(`agent-core: ${maskSecrets(message, config.secrets)}\n`),
  });
  let conversation: Conversation | undefined;
  try {
    if (args.command === 'replay') {
      const { replayCommand } = await import('./commands/replay-command.js');
      return await replayCommand(
        {
          id: (await findSession(store, args.target as string, { summary: false })).id,
          update: args.update,
          tools: args.recordedTools ? 'recorded' : 'real',
          json: args.json,
        },
        store,
        settings,
        { out, errors: process.stderr, style, errorStyle: styleFor(process.stderr, process.env) },
      );
    }
    const missing = missingKey(config, settings.provider.name);
    if (missing !== undefined)
      throw new ConfigError(
        `The provider ${settings.provider.name} has no API key: ${missing}. Or pick another with --provider (mock runs offline).`,
      );
    if (settings.provider.notice !== undefined) process.stderr.write(`${settings.provider.notice}\n`);
    const listener = args.json
      ? (event: AgentEvent) => {
          // Each run starts with a line naming its session, so a script can approve or resume it.
          if (event.type === 'agent_start' && conversation !== undefined)
            out.write(`${JSON.stringify(sessionLine(conversation, event.runId))}\n`);
          out.write(`${maskSecrets(JSON.stringify(event), config.secrets)}\n`);
        }
      : (renderer as EventRenderer).listener;
    conversation = await Conversation.open(
      { store, settings, listener, logger: storeLogger, notify: (line) => process.stderr.write(`${line}\n`) },
      sessionChoice(args),
    );
    const errorStyle = styleFor(process.stderr, process.env);
    const tracer = args.trace ? (await import('./trace-runs.js')).traceRuns(conversation.agent) : undefined;
    const io: RunIo = {
      out,
      errors: process.stderr,
      style: renderer?.style ?? styleFor(out, { NO_COLOR: '1' }),
      errorStyle,
      json: args.json,
      renderer,
      tracer,
    };
    if (args.command === 'chat') return await chatCommand(conversation, args.prompt, io);
    if (args.command === 'approve') {
      return await approveCommand(
        conversation,
        { calls: args.calls, deny: args.deny, reason: args.reason },
        io,
      );
    }
    const { repl } = await import('./repl/repl.js');
    const history = new InputHistory(join(stateDirectory(process.env), 'history'));
    return await repl({ conversation, terminal, history, io });
  } finally {
    await conversation?.close();
    await settings.close();
  }
}

/** The line `--json` starts each run with: the session and the run, and whether the session is stored. */
function sessionLine(conversation: Conversation, runId: string) {
  return {
    type: 'session',
    sessionId: conversation.session.id,
    runId,
    stored: conversation.store.kind !== 'memory',
  };
}

function sessionChoice(args: CliArguments): SessionChoice {
  if (args.command === 'approve') return { kind: 'id', id: args.target as string };
  if (args.continue) return { kind: 'continue' };
  if (args.session !== undefined && args.session !== 'new') return { kind: 'id', id: args.session };
  // An explicit --session new prints the id at once; otherwise the summary line carries it.
  return { kind: 'new', announce: args.session === 'new' };
}

/** A logger whose records never carry the configuration's secrets. */
function maskingLogger(logger: Logger, secrets: readonly string[]): Logger {
  if (secrets.length === 0) return logger;
  const wrap =
    (level: keyof Logger) =>
    (message: string, fields?: Record<string, unknown>): void =>
      logger[level](
        maskSecrets(message, secrets),
        fields === undefined ? undefined : maskSecrets(fields, secrets),
      );
  return { debug: wrap('debug'), info: wrap('info'), warn: wrap('warn'), error: wrap('error') };
}

/** The same error with the secrets masked out of its message (its code and class kept). */
function masked(error: unknown, secrets: readonly string[]): unknown {
  if (!(error instanceof Error) || secrets.length === 0) return error;
  const text = maskSecrets(error.message, secrets);
  if (text !== error.message) error.message = text;
  if (error.stack !== undefined) error.stack = maskSecrets(error.stack, secrets);
  return error;
}
