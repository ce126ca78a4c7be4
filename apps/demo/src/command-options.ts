import type { Command } from './parse-args.js';

// The options each command takes; any other is refused, so a mistyped or misplaced one never goes unnoticed.
const configOptions = [
  'provider',
  'model',
  'base-url',
  'provider-name',
  'orchestrator',
  'tools',
  'mcp',
  'policy',
  'context-window',
  'log-level',
  'no-skills',
] as const;
const storeOptions = ['store', 'data-dir'] as const;
const runOptions = [
  ...configOptions,
  ...storeOptions,
  'yes',
  'no-input',
  'trace',
  'no-compact',
  'hide-thinking',
] as const;
const optionsOf: Partial<Record<Command, readonly string[]>> = {
  chat: [...runOptions, 'json', 'session', 'continue', 'no-session', 'queue', 'no-wait', 'operation-id'],
  repl: [...runOptions, 'session', 'continue', 'no-session'],
  approve: [...runOptions, 'json', 'deny', 'reason', 'no-wait'],
  approvals: [...storeOptions, 'json', 'log-level'],
  'sessions-list': [...storeOptions, 'json', 'limit', 'all', 'log-level'],
  'sessions-show': [...storeOptions, 'json', 'hide-thinking', 'log-level'],
  'sessions-rm': [...storeOptions, 'log-level'],
  'sessions-repair': [...storeOptions, 'log-level'],
  'config-init': ['project', 'force'],
  'config-show': [...configOptions, ...storeOptions],
  'config-validate': [],
  acp: [...configOptions, ...storeOptions, 'no-compact'],
  replay: [...runOptions, 'json', 'update'],
  studio: [...configOptions, ...storeOptions, 'port', 'host', 'open'],
  worker: [...configOptions, ...storeOptions, 'concurrency', 'json', 'no-compact'],
  'skills-list': configOptions,
  'skills-validate': configOptions,
};

/** What is wrong with the options given to a command (one it does not take, naming the ones it does), or undefined. */
export function optionProblem(
  command: Command,
  first: string | undefined,
  given: readonly string[],
): string | undefined {
  const allowed = optionsOf[command];
  if (allowed === undefined) return undefined;
  const name =
    command === 'repl'
      ? 'the REPL'
      : /^(sessions|config)-/.test(command)
        ? command.replace('-', ' ')
        : (first ?? command);
  for (const option of given) {
    if (option === 'debug' || option === 'help' || option === 'version' || allowed.includes(option)) continue;
    if (option === 'json')
      return `--json prints JSON: chat, run, approve, replay, worker, approvals, sessions list and sessions show take it; ${name} does not.`;
    const takes = allowed.length === 0 ? 'no options' : allowed.map((known) => `--${known}`).join(', ');
    return `${name} does not take --${option}; it takes ${takes}.`;
  }
  if (given.includes('reason') && !given.includes('deny'))
    return '--reason goes with --deny: agent-core approve SESSION [CALL...] --deny --reason TEXT';
  return undefined;
}
