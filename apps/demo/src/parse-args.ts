import { parseArgs } from 'node:util';

/** What the command line asked for. */
export interface CliArguments {
  command: 'chat' | 'repl' | 'sessions-list' | 'acp' | 'help' | 'version';
  prompt: string;
  provider: string | undefined;
  model: string | undefined;
  baseUrl: string | undefined;
  /** The name messages give the provider; defaults to the host of `baseUrl`. */
  providerName: string | undefined;
  orchestrator: string;
  tools: string[];
  /** MCP server commands, e.g. 'npx -y @modelcontextprotocol/server-everything'. */
  mcp: string[];
  /** Allow write and execute tools without asking. */
  yes: boolean;
  json: boolean;
  /** A stored session's id to resume, `'new'` to start one, or undefined to keep nothing. */
  session: string | undefined;
  /** Where sessions are kept (`<dataDir>/sessions`); undefined for the default. */
  dataDir: string | undefined;
  /** Log records of the run to stderr from this level on; undefined logs nothing. */
  logLevel: LogLevel | undefined;
  /** Print the run's span tree when it ends. */
  trace: boolean;
  /** Run without a context window, even when the model's is known. */
  noCompact: boolean;
}

/** The levels `--log-level` takes. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const logLevels: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

/** Thrown for a command line that cannot be understood; the message says how to fix it. */
export class UsageError extends Error {}

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
  let command: CliArguments['command'];
  if (values.help === true || first === 'help') command = 'help';
  else if (values.version === true) command = 'version';
  else if (first === undefined) command = 'repl';
  else if (first === 'chat') command = 'chat';
  else if (first === 'acp' && rest.length === 0) command = 'acp';
  else if (first === 'sessions') {
    if (rest[0] !== 'list' || rest.length > 1)
      throw new UsageError(`Unknown sessions command '${rest.join(' ')}'. Use: agent-core sessions list`);
    command = 'sessions-list';
  } else
    throw new UsageError(
      `Unknown command '${first}'. Commands: chat "<prompt>", sessions list, acp, or no command for the REPL.`,
    );
  const prompt = command === 'chat' ? rest.join(' ').trim() : '';
  if (command === 'chat' && prompt === '')
    throw new UsageError('chat needs a prompt, e.g. agent-core chat "What is 15 * 3?"');
  const logLevel = values['log-level'];
  if (logLevel !== undefined && !logLevels.includes(logLevel as LogLevel))
    throw new UsageError(`--log-level takes ${logLevels.join(', ')}; got '${logLevel}'.`);
  if (values.session === '')
    throw new UsageError("--session needs a session id, or 'new' to start a session.");
  return {
    command,
    prompt,
    provider: values.provider,
    model: values.model,
    baseUrl: values['base-url'],
    providerName: values['provider-name'],
    orchestrator: values.orchestrator ?? 'agentic',
    tools: (values.tools ?? 'basic')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
    mcp: values.mcp ?? [],
    yes: values.yes === true,
    json: values.json === true,
    session: values.session,
    dataDir: values['data-dir'],
    logLevel: logLevel as LogLevel | undefined,
    trace: values.trace === true,
    noCompact: values['no-compact'] === true,
  };
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
      yes: { type: 'boolean', short: 'y' },
      json: { type: 'boolean' },
      session: { type: 'string', short: 's' },
      'data-dir': { type: 'string' },
      'log-level': { type: 'string' },
      trace: { type: 'boolean' },
      'no-compact': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}

/** The `--help` text. */
export const usage = `agent-core: chat with an agent that uses tools.

Usage:
  agent-core chat "<prompt>" [options]   answer one prompt, streaming the reply
  agent-core [options]                   interactive session; a line typed during a run steers it,
                                         except commands (/reset, /resume, /exit), which never reach the model
  agent-core sessions list [--data-dir <dir>]
                                         stored sessions, newest first: id, updated, status, messages, title
  agent-core acp [options]               serve the agent to an editor (Zed, JetBrains, Neovim) over the
                                         Agent Client Protocol on stdin/stdout; sessions under --data-dir

Options:
  -p, --provider <name>       mock (offline), anthropic or openai
  -m, --model <name>          model name for the provider
      --base-url <url>        an OpenAI-compatible server (Ollama, vLLM, llama.cpp, OpenRouter)
      --provider-name <name>  what messages call that server (default: the host of --base-url)
  -o, --orchestrator <name>   agentic (default), react or plan-execute
  -t, --tools <packs>         comma-separated tool packs: basic (default), fs, shell
      --mcp '<command args>'  add the tools of an MCP server started with this command (repeatable)
  -y, --yes                   run write and execute tools without asking first
      --json                  print every event as one JSON line (NDJSON)
  -s, --session <id|new>      keep the conversation in a stored session: 'new' starts one and prints
                              its id; an id resumes that session (an id never stored is an error)
      --data-dir <dir>        where sessions are stored (<dir>/sessions); default $AGENT_CORE_DATA_DIR,
                              else $XDG_DATA_HOME/agent-core, else ~/.local/share/agent-core
      --log-level <level>     log the run as JSON lines on stderr: debug, info, warn or error
      --trace                 print the run's OpenTelemetry span tree with durations on stderr when it ends
      --no-compact            no context window: never compact the history sent to the model
  -h, --help                  show this help
  -v, --version               print the version

With no API key in the environment it runs on the offline mock model and says so.
Exit codes: 0 the run completed with an answer; 1 it ended otherwise, or the model returned no
text; 2 bad usage or configuration.
`;
