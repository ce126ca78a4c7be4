import {
  type Agent,
  AgentError,
  type AgentListener,
  type AgentRun,
  ConfigError,
  type Logger,
  type ResumeOptions,
  type Session,
  SessionManager,
} from '@agent-core/core';
import type { AgentSettings } from '../agent-settings.js';
import { type MadeAgentOptions, makeAgentOptions } from '../make-agent/make-agent-options.js';
import { cliSession, sessionMetadata } from './cli-session.js';
import type { OpenedStore } from './open-store.js';
import { findSession } from './find-session.js';
import { listPageSize } from './list-page-size.js';

/** Which session a command talks to. */
export type SessionChoice =
  | { kind: 'new'; announce?: boolean }
  | { kind: 'id'; id: string }
  | { kind: 'continue' };

/** What `Conversation.open` needs. */
export interface ConversationOptions {
  store: OpenedStore;
  settings: AgentSettings;
  /** Gets every event of every run, whichever session is current. */
  listener: AgentListener;
  logger: Logger;
  /** Where notices go (stderr): which session was opened, its state. */
  notify(line: string): void;
}

/**
 * The session the CLI talks to, over a `SessionManager` whose agents are
 * made by `makeAgentOptions` from the current settings. Every conversation
 * is stored, so the REPL can switch sessions, or reopen the current one with
 * other settings (`/orchestrator`, `/policy`) without losing anything.
 */
export class Conversation {
  readonly manager: SessionManager;
  readonly settings: AgentSettings;
  readonly store: OpenedStore;
  #session: Session;
  #unsubscribe: () => void;
  readonly #options: ConversationOptions;
  readonly #made: Map<string, MadeAgentOptions>;

  private constructor(
    options: ConversationOptions,
    manager: SessionManager,
    session: Session,
    made: Map<string, MadeAgentOptions>,
  ) {
    this.#options = options;
    this.manager = manager;
    this.settings = options.settings;
    this.store = options.store;
    this.#session = session;
    this.#made = made;
    this.#unsubscribe = session.agent.subscribe(options.listener);
  }

  /** Opens (or creates) the chosen session and says on stderr which one it is. */
  static async open(options: ConversationOptions, choice: SessionChoice): Promise<Conversation> {
    const made = new Map<string, MadeAgentOptions>();
    const manager = new SessionManager({
      store: options.store.store,
      // Each session's agent is made from the settings as they are now, with the tools the session was created with.
      agentOptions: async ({ id, metadata }) => {
        const agent = await makeAgentOptions(options.settings, cliSession(options.settings, metadata));
        await made.get(id)?.close();
        made.set(id, agent);
        return agent.options;
      },
      logger: options.logger,
    });
    const session = await openSession(manager, options, choice);
    return new Conversation(options, manager, session, made);
  }

  /** How the current session's agent was made: its tools' sources, its provider's names. */
  get made(): MadeAgentOptions {
    return this.#made.get(this.#session.id) as MadeAgentOptions;
  }

  /** Closes what the sessions' agents opened (their own MCP servers). */
  async close(): Promise<void> {
    for (const made of this.#made.values()) await made.close();
    this.#made.clear();
  }

  get session(): Session {
    return this.#session;
  }

  get agent(): Agent {
    return this.#session.agent;
  }

  /** Starts a run for a prompt; every step is written to the store. */
  prompt(text: string, signal?: AbortSignal): AgentRun {
    return this.#session.prompt(text, signal === undefined ? undefined : { signal });
  }

  /** Continues a paused or interrupted run (with decisions for the calls that wait). */
  resume(options?: ResumeOptions): AgentRun {
    return this.#session.resume(options);
  }

  /** Loads the current session again, so its agent is built from the settings as they are now. */
  async reopen(): Promise<void> {
    const id = this.#session.id;
    this.manager.close(id);
    this.#attach(await this.manager.get(id));
  }

  /** Makes another stored session, or a new one, the current one. */
  async switchTo(choice: SessionChoice): Promise<Session> {
    const session = await openSession(this.manager, this.#options, choice);
    const previous = this.#session.id;
    this.#attach(session);
    if (previous !== session.id) {
      this.manager.close(previous);
      await this.#made.get(previous)?.close();
      this.#made.delete(previous);
    }
    return session;
  }

  #attach(session: Session): void {
    this.#unsubscribe();
    this.#session = session;
    this.#unsubscribe = session.agent.subscribe(this.#options.listener);
  }
}

async function openSession(
  manager: SessionManager,
  options: ConversationOptions,
  choice: SessionChoice,
): Promise<Session> {
  const { store, notify, settings } = options;
  const where = store.kind === 'memory' ? '' : ` (stored in ${store.label})`;
  if (choice.kind === 'new') {
    const session = await manager.create({ metadata: sessionMetadata(settings) });
    if (store.kind !== 'memory' && choice.announce === true)
      notify(`agent-core: new session ${session.id}${where}; continue it with --session ${session.id}`);
    return session;
  }
  const id =
    choice.kind === 'id'
      ? (await findSession(store, choice.id, { summary: false })).id
      : await latestInFolder(manager, settings.config.cwd);
  if (id === undefined) {
    throw new ConfigError(
      `No stored session was started in ${settings.config.cwd}, so --continue has nothing to continue. 'agent-core sessions list' shows the stored sessions.`,
    );
  }
  let session: Session;
  try {
    session = await manager.get(id);
  } catch (error) {
    // By code, so the check holds across duplicate copies of core.
    if (!AgentError.isInstance(error) || error.code !== 'session_not_found') throw error;
    throw new ConfigError(
      `No session '${id}' is stored in ${store.label}. 'agent-core sessions list' shows the stored sessions; --session new starts one.`,
      { cause: error },
    );
  }
  notify(
    `agent-core: session ${session.id} opened: ${session.messages.length} messages, last seq ${session.lastSeq}, status ${session.status}`,
  );
  if (session.status === 'interrupted') {
    notify(
      'agent-core: this session was interrupted: a process stopped during its last run (tool calls it left unfinished have error results). ' +
        'In the REPL, /resume continues that run; a new prompt goes on from the history as it is.',
    );
  } else if (session.status === 'running') {
    notify(
      'agent-core: another process is running this session now; its prompts here are refused. Open it again once that run has ended.',
    );
  } else if (session.status === 'await_user') {
    notify(
      `agent-core: this session waits for approval of ${session.agent.pendingApprovals.length} tool call(s): 'agent-core approve ${session.id}' (or /approve in the REPL) decides them; a new prompt skips them.`,
    );
  }
  return session;
}

/** The most recently active session whose metadata says it was started in `cwd`: from summaries alone. */
export async function latestInFolder(
  manager: Pick<SessionManager, 'list'>,
  cwd: string,
): Promise<string | undefined> {
  let cursor: string | undefined;
  do {
    const page = await manager.list(
      cursor === undefined ? { limit: listPageSize } : { cursor, limit: listPageSize },
    );
    const found = page.sessions.find((summary) => summary.metadata.cwd === cwd);
    if (found !== undefined) return found.id;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return undefined;
}
