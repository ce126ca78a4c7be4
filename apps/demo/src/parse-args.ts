import { parseArgs } from 'node:util';
import { optionProblem } from './command-options.js';
import type { ConfigFlags } from './config/load-config.js';

/** The commands of `agent-core`. */
export type Command =
  | 'chat'
  | 'repl'
  | 'sessions-list'
  | 'sessions-show'
  | 'sessions-rm'
  | 'sessions-repair'
  | 'config-init'
  | 'config-show'
  | 'config-validate'
  | 'skills-list'
  | 'skills-validate'
  | 'approvals'
  | 'approve'
  | 'acp'
  | 'replay'
  | 'studio'
  | 'worker'
  | 'help'
  | 'version';

/** What the command line asked for. */
export interface CliArguments {
  command: Command;
  /** `chat`'s prompt argument ('' when none was given: it may come from stdin). */
  prompt: string;
  /** `chat -`: the prompt is stdin alone. */
  promptFromStdin: boolean;
  /** Flags that override the configuration files and the environment. */
  flags: ConfigFlags;
  /** Allow every tool call the policy would ask about. */
  yes: boolean;
  /** Never ask anything: a call that needs approval pauses the run (exit code 3). */
  noInput: boolean;
  json: boolean;
  /** `--session`: a stored session's id, or `'new'`. */
  session: string | undefined;
  /** `--continue`: the latest session started in this folder. */
  continue: boolean;
  /** `--no-session`: keep the conversation in this process only. */
  noSession: boolean;
  trace: boolean;
  noCompact: boolean;
  hideThinking: boolean;
  /** Print stack traces of unexpected errors. */
  debug: boolean;
  /** `sessions show|rm|repair ID`, `approve ID`, `skills validate [DIR]`. */
  target: string | undefined;
  /** `approve SESSION CALL...`: the calls to decide (all waiting calls when empty). */
  calls: string[];
  deny: boolean;
  reason: string | undefined;
  /** `config init --force` overwrites; `--project` writes `.agent-core/config.toml` here. */
  force: boolean;
  project: boolean;
  /** `sessions list --limit N` (default 50), `--all`. */
  limit: number | undefined;
  /** `replay --update`: re-record the session's prompts from the live model into a new session. */
  update: boolean;
  /** `replay --tools=recorded`: every tool call answered from the stored session, none run. */
  recordedTools: boolean;
  /** `studio --port N` (0: a free port), `--host ADDRESS`, `--open`. */
  port: number | undefined;
  host: string | undefined;
  open: boolean;
  /** `run --queue`: enqueue the prompt for the workers instead of running it here. */
  queue: boolean;
  /** `--no-wait`: with `--queue` (or `approve` of a queued session), return once enqueued. */
  noWait: boolean;
  /** `--operation-id`: names what `--queue` enqueues, so the same command again runs nothing more. */
  operationId: string | undefined;
}

/**
 * A command line that cannot be understood (exit code 2); the message says
 * how to fix it. It carries core's error marker, so `AgentError.isInstance`
 * knows it, without `--help` paying for importing core.
 */
export class UsageError extends Error {
  readonly code = 'usage';

  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
    Object.defineProperty(this, Symbol.for('agent-core.error'), { value: true });
  }
}

const subcommands: Record<string, readonly string[]> = {
  sessions: ['list', 'show', 'rm', 'repair'],
  config: ['init', 'show', 'validate'],
  skills: ['list', 'validate'],
};

/** Parses `argv` (without node and the script). */
export function parseCliArguments(argv: readonly string[]): CliArguments {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError(usageMessage(error as Error & { code?: string }));
  }
  const { values, positionals } = parsed;
  const [first, ...rest] = positionals;
  let command: Command;
  let target: string | undefined;
  let calls: string[] = [];
  if (values.help === true || first === 'help') command = 'help';
  else if (values.version === true) command = 'version';
  else if (first === undefined) command = 'repl';
  else if (first === 'chat' || first === 'run') command = 'chat';
  else if (first === 'approvals') command = 'approvals';
  else if (first === 'acp') {
    command = 'acp';
    if (rest.length > 0)
      throw new UsageError(
        `acp takes no arguments; got ${rest.join(' ')}. Its settings come from the options and the config.`,
      );
  } else if (first === 'worker') {
    command = 'worker';
    if (rest.length > 0)
      throw new UsageError(
        `worker takes no arguments; got ${rest.join(' ')}. It serves the run queue of the configured postgres:// store.`,
      );
  } else if (first === 'replay') {
    command = 'replay';
    target = rest[0];
    if (target === undefined)
      throw new UsageError(
        'replay needs a session id: agent-core replay SESSION [--tools=recorded] [--update] [--json]',
      );
    if (rest.length > 1) throw new UsageError(`Too many arguments for 'replay': ${rest.slice(1).join(' ')}`);
  } else if (first === 'studio') {
    command = 'studio';
    if (rest.length > 0)
      throw new UsageError(
        `studio takes no arguments; got ${rest.join(' ')}. Use --port, --host, --open and --store.`,
      );
  } else if (first === 'approve') {
    command = 'approve';
    [target, ...calls] = rest;
    if (target === undefined)
      throw new UsageError(
        'approve needs a session id: agent-core approve SESSION [CALL...] [--deny] [--reason TEXT]',
      );
  } else if (first === 'sessions' || first === 'config' || first === 'skills') {
    const sub = rest[0] ?? (first === 'config' ? undefined : 'list');
    if (sub === undefined || !subcommands[first]?.includes(sub))
      throw new UsageError(
        `Unknown ${first} command '${rest.join(' ')}'. Use: agent-core ${first} ${subcommands[first]?.join(' | ')}`,
      );
    command = `${first}-${sub}` as Command;
    target = rest[1];
    const needsId = command === 'sessions-show' || command === 'sessions-rm' || command === 'sessions-repair';
    if (needsId && target === undefined)
      throw new UsageError(`${first} ${sub} needs a session id: agent-core ${first} ${sub} ID`);
    const takesTarget = needsId || command === 'skills-validate';
    if (rest.length > (takesTarget ? 2 : 1))
      throw new UsageError(
        `Too many arguments for '${first} ${sub}': ${rest.slice(takesTarget ? 2 : 1).join(' ')}`,
      );
  } else {
    throw new UsageError(
      `Unknown command '${first}'. Commands: chat "<prompt>" (or run), sessions, approvals, approve, replay, skills, config, acp, studio, worker; no command opens the REPL. Run 'agent-core --help'.`,
    );
  }
  // `chat -` reads the prompt from stdin; `chat` alone does when stdin is not a terminal (see readPrompt).
  const promptFromStdin = command === 'chat' && rest.length === 1 && rest[0] === '-';
  const prompt = command === 'chat' && !promptFromStdin ? rest.join(' ').trim() : '';
  if (values.session === '')
    throw new UsageError("--session needs a session id, or 'new' to start a session.");
  const problem = optionProblem(command, first, Object.keys(values));
  if (problem !== undefined) throw new UsageError(problem);
  // `replay --tools=recorded` answers every call from the stored session; any other --tools names packs.
  const recordedTools = command === 'replay' && values.tools === 'recorded';
  const chosen = [
    values.session !== undefined,
    values.continue === true,
    values['no-session'] === true,
  ].filter(Boolean);
  if (chosen.length > 1) throw new UsageError('Choose one of --session, --continue and --no-session.');
  if (values.queue === true && values['no-session'] === true)
    throw new UsageError(
      '--queue runs the prompt in a stored session that a worker loads; it cannot be used with --no-session.',
    );
  if (values['operation-id'] !== undefined && values.queue !== true)
    throw new UsageError('--operation-id names what --queue enqueues; use it with run --queue.');
  if (values['no-wait'] === true && values.queue !== true && command !== 'approve')
    throw new UsageError(
      '--no-wait is for run --queue and approve: they then return once the run is enqueued.',
    );
  return {
    command,
    prompt,
    promptFromStdin,
    flags: flagsOf(recordedTools ? { ...values, tools: undefined } : values),
    yes: values.yes === true,
    noInput: values['no-input'] === true,
    json: values.json === true,
    session: values.session,
    continue: values.continue === true,
    noSession: values['no-session'] === true,
    trace: values.trace === true,
    noCompact: values['no-compact'] === true,
    hideThinking: values['hide-thinking'] === true,
    debug: values.debug === true,
    target,
    calls,
    deny: values.deny === true,
    reason: values.reason,
    force: values.force === true,
    project: values.project === true,
    limit: values.all === true ? Number.POSITIVE_INFINITY : limitOf(values.limit),
    update: values.update === true,
    recordedTools,
    port: portOf(values.port),
    host: hostOf(values.host),
    open: values.open === true,
    queue: values.queue === true,
    noWait: values['no-wait'] === true,
    operationId: values['operation-id'],
  };
}

function flagsOf(values: ReturnType<typeof parse>['values']): ConfigFlags {
  const flags: ConfigFlags = {};
  const contextWindow = values['context-window'];
  if (contextWindow !== undefined && !/^\d+$/.test(contextWindow))
    throw new UsageError(`--context-window takes a number of tokens; got '${contextWindow}'.`);
  const logLevel = values['log-level'];
  if (logLevel !== undefined && !['debug', 'info', 'warn', 'error'].includes(logLevel))
    throw new UsageError(`--log-level takes debug, info, warn, error; got '${logLevel}'.`);
  const entries: [keyof ConfigFlags, unknown][] = [
    ['provider', values.provider],
    ['model', values.model],
    ['baseUrl', values['base-url']],
    ['providerName', values['provider-name']],
    ['orchestrator', values.orchestrator],
    [
      'tools',
      values.tools
        ?.split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    ],
    ['mcp', values.mcp],
    ['policy', values.policy],
    ['contextWindow', contextWindow === undefined ? undefined : Number(contextWindow)],
    ['store', values.store],
    ['dataDir', values['data-dir']],
    ['logLevel', logLevel],
    ['noSkills', values['no-skills'] === true ? true : undefined],
    ['concurrency', concurrencyOf(values.concurrency)],
  ];
  for (const [key, value] of entries)
    if (value !== undefined) (flags as Record<string, unknown>)[key] = value;
  return flags;
}

function portOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) > 65_535)
    throw new UsageError(`--port takes a port number from 0 (any free one) to 65535; got '${text}'.`);
  return Number(text);
}

function hostOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (text === '' || /[\s/]/.test(text))
    throw new UsageError(
      `--host takes an address to listen on, such as 127.0.0.1 or 0.0.0.0; got '${text}'.`,
    );
  return text;
}

function concurrencyOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) === 0)
    throw new UsageError(`--concurrency takes a positive number of runs; got '${text}'.`);
  return Number(text);
}

function limitOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) === 0)
    throw new UsageError(`--limit takes a positive number; got '${text}'.`);
  return Number(text);
}

// Node's own text for an unknown option ends in an unbalanced quote
// ("as in '-- \"--x\""), so that case gets a message of our own.
function usageMessage(error: Error & { code?: string }): string {
  if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']+)'/.exec(error.message)?.[1] ?? 'option';
    return `Unknown option '${option}'. Run 'agent-core --help' for the options; a prompt that starts with '-' goes after '--'.`;
  }
  return `${error.message.replace(/\.$/, '')}. Run 'agent-core --help' for usage.`;
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      provider: { type: 'string', short: 'p' },
      model: { type: 'string', short: 'm' },
      'base-url': { type: 'string' },
      'provider-name': { type: 'string' },
      orchestrator: { type: 'string', short: 'o' },
      tools: { type: 'string', short: 't' },
      mcp: { type: 'string', multiple: true },
      policy: { type: 'string' },
      'context-window': { type: 'string' },
      store: { type: 'string' },
      'data-dir': { type: 'string' },
      yes: { type: 'boolean', short: 'y' },
      'no-input': { type: 'boolean' },
      json: { type: 'boolean' },
      session: { type: 'string', short: 's' },
      continue: { type: 'boolean', short: 'c' },
      'no-session': { type: 'boolean' },
      'log-level': { type: 'string' },
      trace: { type: 'boolean' },
      'no-compact': { type: 'boolean' },
      'no-skills': { type: 'boolean' },
      'hide-thinking': { type: 'boolean' },
      debug: { type: 'boolean' },
      deny: { type: 'boolean' },
      reason: { type: 'string' },
      force: { type: 'boolean' },
      project: { type: 'boolean' },
      limit: { type: 'string' },
      all: { type: 'boolean' },
      update: { type: 'boolean' },
      port: { type: 'string' },
      host: { type: 'string' },
      open: { type: 'boolean' },
      concurrency: { type: 'string' },
      queue: { type: 'boolean' },
      'no-wait': { type: 'boolean' },
      'operation-id': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}
