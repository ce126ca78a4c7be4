import { noteRequests } from '@agent-core/cassette';
import { type AgentRun, isModelMessage, loadedSkillNames } from '@agent-core/core';
import { policyOf } from '../agent-settings.js';
import { decisionsFor } from '../commands/approve-command.js';
import type { RunIo } from '../commands/run-io.js';
import { listSessions } from '../commands/sessions-commands.js';
import { writeSkillList } from '../commands/skills-commands.js';
import { requestCompaction } from '../make-agent/request-compaction.js';
import type { ResolvedProvider } from '../plugins/resolve-provider.js';
import { resolveOrchestrator } from '../plugins/resolve-tools.js';
import type { Conversation } from '../sessions/conversation.js';
import { sessionUsageText } from '../sessions/session-usage.js';
import { chooseModel, modelListing } from './switch-model.js';

/** What a REPL command can reach. */
export interface ReplContext {
  conversation: Conversation;
  io: RunIo;
  /** Prints a dimmed `(note)` line. */
  say(text: string): void;
  running(): AgentRun | undefined;
  start(run: AgentRun): void;
}

interface ReplCommand {
  usage: string;
  help: string;
  /** Allowed while a run is going on; the others say they work between runs. */
  duringRun?: boolean;
  run(context: ReplContext, argument: string): Promise<void> | void;
}

const commands: Record<string, ReplCommand> = {
  '/help': { usage: '/help', help: 'this list', duringRun: true, run: help },
  '/followup': {
    usage: '/followup TEXT',
    help: 'queue a message for after the current answer (or before the next prompt)',
    duringRun: true,
    run: (context, text) => {
      if (text === '') return context.say('/followup needs the text to send');
      context.conversation.agent.followUp(text);
      context.say(
        context.running() === undefined
          ? 'queued: it goes in before your next prompt'
          : 'queued as a follow-up',
      );
    },
  },
  '/model': {
    usage: '/model [NAME]',
    help: 'show or switch the model (an alias of the config works), keeping the conversation',
    run: (context, name) => switchModel(context, undefined, name === '' ? undefined : name),
  },
  '/provider': {
    usage: '/provider [NAME [MODEL]]',
    help: 'show or switch the provider, keeping the conversation',
    run: (context, argument) => {
      const [provider, model] = argument.split(/\s+/).filter(Boolean);
      return switchModel(context, provider, model);
    },
  },
  '/orchestrator': {
    usage: '/orchestrator [NAME]',
    help: 'show or switch the orchestrator (agentic, react, plan-execute)',
    run: switchOrchestrator,
  },
  '/tools': {
    usage: '/tools',
    help: 'the tools, with their risk and where they come from',
    duringRun: true,
    run: listTools,
  },
  '/skills': {
    usage: '/skills',
    help: 'the Agent Skills of this session (loaded ones marked), hidden and broken ones; /NAME uses one',
    duringRun: true,
    run: listSkills,
  },
  '/policy': {
    usage: '/policy [PROFILE]',
    help: 'show or switch the approval policy (strict, standard, permissive)',
    run: switchPolicy,
  },
  '/session': {
    usage: '/session [ID|new]',
    help: 'show the current session, or switch to another (new starts one)',
    run: switchSession,
  },
  '/sessions': {
    usage: '/sessions',
    help: 'the newest stored sessions',
    duringRun: true,
    run: (context) => void listSessions(context.conversation.store, 20, context.io.out),
  },
  '/clear': {
    usage: '/clear',
    help: 'start a new session (the old one stays stored)',
    run: (context) => switchSession(context, 'new'),
  },
  '/reset': { usage: '/reset', help: 'the same as /clear', run: (context) => switchSession(context, 'new') },
  '/compact': {
    usage: '/compact',
    help: 'compact the history sent to the model before the next call (the full history is kept)',
    run: compact,
  },
  '/cost': { usage: '/cost', help: 'tokens and cost of this session so far', duringRun: true, run: cost },
  '/resume': {
    usage: '/resume',
    help: 'continue a run a crash or Ctrl-C stopped before its answer',
    run: resume,
  },
  '/approve': {
    usage: '/approve [CALL...]',
    help: 'allow the calls waiting for approval and finish the run',
    run: (context, calls) => decide(context, calls, false),
  },
  '/deny': {
    usage: '/deny [CALL...]',
    help: 'refuse the calls waiting for approval and finish the run',
    run: (context, calls) => decide(context, calls, true),
  },
  '/exit': {
    usage: '/exit',
    help: 'quit (after the current run ends; Ctrl-C twice quits at once)',
    run: () => {},
  },
};

/** Runs one `/command` line; an unknown command is refused and never reaches the model. */
export async function runReplCommand(context: ReplContext, line: string): Promise<void> {
  const [name = '', ...rest] = line.split(/\s+/);
  const command = commands[name];
  if (command === undefined) {
    // A skill's name, unless a command has it: the line goes to the model, which loads the skill.
    const skill = context.conversation.made.skills?.skills.find((candidate) => `/${candidate.name}` === name);
    if (skill !== undefined) {
      if (context.running() !== undefined)
        return context.say(`${name} was not sent to the model; it works between runs`);
      context.start(context.conversation.prompt(line.trim()));
      return;
    }
    context.say(`unknown command ${name}, not sent to the model; /help lists the commands`);
    return;
  }
  if (context.running() !== undefined && command.duringRun !== true) {
    context.say(`${name} was not sent to the model; it works between runs. Ctrl+C aborts the current run`);
    return;
  }
  await command.run(context, rest.join(' ').trim());
}

function help(context: ReplContext): void {
  const width = Math.max(...Object.values(commands).map((command) => command.usage.length));
  const lines = Object.values(commands).map((command) => `  ${command.usage.padEnd(width)}  ${command.help}`);
  context.io.out.write(
    `${lines.join('\n')}\n  A line that is not a command is a prompt; typed during a run, it steers the run.\n`,
  );
}

async function switchModel(
  context: ReplContext,
  provider: string | undefined,
  model: string | undefined,
): Promise<void> {
  const { settings } = context.conversation;
  if (provider === undefined && model === undefined) {
    context.io.out.write(`${modelListing(settings)}\n`);
    return;
  }
  let resolved: ResolvedProvider;
  try {
    resolved = await chooseModel(settings, provider, model);
    // Noted as makeAgentOptions notes it, so the replies after a switch still replay as a cassette.
    context.conversation.agent.setModel(resolved.model, noteRequests(resolved.provider));
  } catch (error) {
    context.say(
      `${(error as Error).message} Still on ${settings.provider.name}, model ${settings.provider.model}.`,
    );
    return;
  }
  settings.provider = resolved;
  context.say(`now on ${resolved.name}, model ${resolved.model}; the conversation goes on`);
}

async function switchOrchestrator(context: ReplContext, name: string): Promise<void> {
  const { settings } = context.conversation;
  if (name === '') return context.say(`orchestrator ${settings.orchestrator.name}`);
  settings.orchestrator = { name, orchestrator: await resolveOrchestrator(name, '/orchestrator') };
  await context.conversation.reopen();
  context.say(`orchestrator ${name} from the next prompt on`);
}

function listTools(context: ReplContext): void {
  const { tools } = context.conversation.agent;
  const sources = context.conversation.made.toolSources;
  if (tools.length === 0) {
    context.say('no tools');
    return;
  }
  const width = Math.max(...tools.map((tool) => tool.name.length));
  for (const tool of tools) {
    context.io.out.write(
      `  ${tool.name.padEnd(width)}  ${(tool.risk ?? 'execute').padEnd(7)}  ${sources.get(tool.name) ?? ''}\n`,
    );
  }
  context.say(`policy ${context.conversation.settings.policy.label}: read tools run, the others as it says`);
}

function listSkills(context: ReplContext): void {
  const found = context.conversation.made.skills;
  if (found === undefined) {
    context.say('skills are turned off (skills.enabled = false, or --no-skills)');
    return;
  }
  writeSkillList(
    found,
    context.io.out,
    context.io.style,
    loadedSkillNames(context.conversation.agent.messages),
  );
}

async function switchPolicy(context: ReplContext, profile: string): Promise<void> {
  const { settings } = context.conversation;
  if (profile === '') return context.say(`policy ${settings.policy.label}`);
  settings.policy = policyOf({ ...(settings.config.values.policy ?? {}), profile }, '/policy');
  await context.conversation.reopen();
  context.say(`policy ${settings.policy.label} from the next prompt on`);
}

async function switchSession(context: ReplContext, id: string): Promise<void> {
  const { conversation } = context;
  if (id === '') {
    const stored =
      conversation.store.kind === 'memory' ? 'kept in memory only' : `stored in ${conversation.store.label}`;
    return context.say(
      `session ${conversation.session.id} (${conversation.session.messages.length} messages, ${stored})`,
    );
  }
  const session = await conversation.switchTo(id === 'new' ? { kind: 'new' } : { kind: 'id', id });
  context.say(
    id === 'new'
      ? `new session ${session.id}; the previous one stays stored`
      : `now in session ${session.id}`,
  );
}

function compact(context: ReplContext): void {
  context.say(requestCompaction(context.conversation.agent));
}

function cost(context: ReplContext): void {
  context.say(sessionUsageText(context.conversation.session.usage));
}

function resume(context: ReplContext): void {
  const { session } = context.conversation;
  if (session.status === 'await_user') {
    context.say('this session waits for approval: /approve or /deny decides the calls and goes on');
    return;
  }
  // A run a crash stopped, or one Ctrl-C aborted before its answer: the history does not end with one.
  const last = session.messages.filter(isModelMessage).at(-1);
  const unfinished =
    session.status === 'interrupted' ||
    (last !== undefined &&
      (last.role !== 'assistant' || last.stopReason === 'aborted' || last.stopReason === 'error'));
  if (!unfinished) {
    context.say(
      '/resume continues a run a crash or Ctrl-C stopped before its answer; the last run of this session finished. Type a prompt to go on.',
    );
    return;
  }
  context.start(context.conversation.resume());
  context.say(`resuming the unfinished run of session ${session.id}`);
}

function decide(context: ReplContext, calls: string, deny: boolean): void {
  const result = decisionsFor(context.conversation, {
    calls: calls.split(/\s+/).filter(Boolean),
    deny,
    reason: undefined,
  });
  if ('problem' in result) {
    context.say(result.problem);
    return;
  }
  context.start(context.conversation.resume({ decisions: result.decisions }));
}
