import {
  Agent,
  AgentError,
  type AgentRun,
  ConfigError,
  type Logger,
  type Session,
  type SessionAgentOptions,
  SessionManager,
} from '@agent-core/core';
import { FileSessionStore } from '@agent-core/store-file';

/** What the CLI talks to: a plain agent, or a stored session and its agent. */
export interface Conversation {
  readonly agent: Agent;
  /** The stored session, when `--session` was given. */
  readonly session: Session | undefined;
  /** Starts a run for a prompt (written to the store when there is a session). */
  prompt(input: string): AgentRun;
}

/** Where a conversation comes from: `--session` and the folder of the store. */
export interface ConversationSource {
  /** A stored session's id, `'new'`, or undefined for a conversation kept in memory only. */
  session: string | undefined;
  /** The `FileSessionStore` root. */
  root: string;
  /** Warnings of the store (corrupt files) and the session manager. */
  logger: Logger;
  /** Where the session notices go (stderr). */
  notify(line: string): void;
}

/**
 * Opens what the CLI will talk to. With a session id, the session is loaded
 * from the store (a run a stopped process left behind is repaired to
 * `interrupted`) and a notice names it, its message count and its last
 * sequence number before any input is taken; an id never stored is a
 * `ConfigError`, never a new empty session. With `'new'`, a session is
 * created and its id printed.
 */
export async function openConversation(
  source: ConversationSource,
  options: SessionAgentOptions,
): Promise<Conversation> {
  if (source.session === undefined) {
    const agent = new Agent(options);
    return { agent, session: undefined, prompt: (input) => agent.prompt(input) };
  }
  const store = new FileSessionStore({ root: source.root, logger: source.logger });
  const manager = new SessionManager({ store, agentOptions: () => options, logger: source.logger });
  let session: Session;
  if (source.session === 'new') {
    session = await manager.create();
    source.notify(
      `agent-core: new session ${session.id} (stored in ${source.root}); continue it with --session ${session.id}`,
    );
  } else {
    session = await load(manager, source);
    source.notify(
      `agent-core: session ${session.id} opened: ${session.messages.length} messages, last seq ${session.lastSeq}, status ${session.status}`,
    );
    if (session.status === 'interrupted') {
      source.notify(
        'agent-core: this session was interrupted: a process stopped during its last run (tool calls it left unfinished have error results). ' +
          'In the REPL, /resume continues that run; a new prompt goes on from the history as it is.',
      );
    } else if (session.status === 'running') {
      source.notify(
        'agent-core: another process is running this session now; its prompts here are refused. Open it again once that run has ended.',
      );
    }
  }
  return { agent: session.agent, session, prompt: (input) => session.prompt(input) };
}

async function load(manager: SessionManager, source: ConversationSource): Promise<Session> {
  const id = source.session as string;
  try {
    return await manager.get(id);
  } catch (error) {
    // By code, so the check holds across duplicate copies of core.
    if (!AgentError.isInstance(error) || error.code !== 'session_not_found') throw error;
    throw new ConfigError(
      `No session '${id}' is stored in ${source.root}. 'agent-core sessions list' shows the stored sessions; --session new starts one.`,
      { cause: error },
    );
  }
}
