import { Agent } from '../agent/agent.js';
import type { AgentOptions } from '../agent/agent-options.js';
import { AgentError, toAgentError } from '../errors/agent-error.js';
import { ConfigError } from '../errors/config-error.js';
import type { SessionBusyError } from '../errors/session-busy-error.js';
import { SessionConflictError } from '../errors/session-conflict-error.js';
import { type Logger, silentLogger } from '../logger/logger.js';
import { checkSessionDepth } from './parse-session-state.js';
import { type RestoredSession, repairInterrupted, restoreSession } from './restore-session.js';
import { Session } from './session.js';
import { checkSessionId } from './session-id.js';
import { SessionJournal, type SessionJournalOptions } from './session-journal.js';
import { type NewSessionOptions, newSessionState, type SessionState } from './session-state.js';
import type { ListSessionsOptions, SessionLease, SessionPage, SessionStore } from './session-store.js';

/** The agent options a session's factory gives; the manager adds the history and the journal. */
export type SessionAgentOptions = Omit<AgentOptions, 'messages' | 'journal'>;

/** Gives each session its provider, tools and options; called when a session is created or loaded. */
export type SessionAgentFactory = (session: {
  id: string;
  metadata: Record<string, unknown>;
}) => SessionAgentOptions | Promise<SessionAgentOptions>;

/** Options of `new SessionManager(...)`. */
export interface SessionManagerOptions extends SessionJournalOptions {
  store: SessionStore;
  /** Called for each session created or loaded; returns the options of its agent (provider, model, tools...). */
  agentOptions: SessionAgentFactory;
  logger?: Logger;
}

/**
 * Keeps many sessions in one process over one `SessionStore`: each session
 * has its own agent (from the factory) and history, and its runs are written
 * to the store as they happen. Loading a session a crashed process left
 * running repairs it first (see `repairInterrupted`); with a store that has
 * leases, a session another live process runs is never taken for crashed.
 *
 * @example
 * const manager = new SessionManager({ store: new MemorySessionStore(), agentOptions: () => ({ provider, model: 'mock' }) });
 * const session = await manager.create();
 * await session.prompt('Hello').result();
 * const again = await manager.get(session.id);
 */
export class SessionManager {
  readonly #options: SessionManagerOptions;
  readonly #logger: Logger;
  readonly #live = new Map<string, Promise<Session>>();

  constructor(options: SessionManagerOptions) {
    checkManagerOptions(options);
    this.#options = options;
    this.#logger = options.logger ?? silentLogger;
  }

  /**
   * Creates and stores a new session. The agent is built (the factory
   * called) before anything is stored, so a factory that throws, or a state
   * the store refuses (`InvalidSessionStateError`), leaves nothing behind, and
   * the same id can be created again; metadata nested too deep is refused
   * before the factory runs. Throws `SessionConflictError` if the id is
   * stored or open in this process.
   */
  async create(options: NewSessionOptions = {}): Promise<Session> {
    if (options.id !== undefined) checkSessionId(options.id);
    const state = newSessionState(options);
    // An id open here keeps its session: tracking the refused create would drop it from this process.
    if (this.#live.has(state.id))
      throw new SessionConflictError(
        state.id,
        0,
        undefined,
        `Session '${state.id}' is already open in this process; nothing was stored. Use get('${state.id}') for it, or create the new session under another id.`,
      );
    const opening = (async () => {
      // Metadata a store would refuse for its depth is refused before the factory runs; the store checks the rest.
      checkSessionDepth(state);
      const session = await this.#open(state);
      state.version = (await this.#options.store.save(state, { expectedVersion: 0 })).version;
      return session;
    })();
    return this.#track(state.id, opening);
  }

  /**
   * The session with this id: the one already open in this process, or
   * loaded from the store (log replayed, a crashed run repaired to
   * `interrupted`; a run another live process holds the lease of is left
   * as it is, status `running`). Throws `SessionNotFoundError` for an id
   * never stored, never an empty session.
   */
  get(id: string): Promise<Session> {
    try {
      checkSessionId(id);
    } catch (error) {
      return Promise.reject(error);
    }
    const live = this.#live.get(id);
    if (live !== undefined) return live;
    return this.#track(id, this.#load(id));
  }

  /** Stored sessions, newest first, one page at a time. */
  list(options?: ListSessionsOptions): Promise<SessionPage> {
    return this.#options.store.list(options);
  }

  /** Aborts the running prompt of an open session; false if none was running. */
  async cancel(id: string, reason?: unknown): Promise<boolean> {
    const live = this.#live.get(id);
    if (live === undefined) return false;
    return (await live).cancel(reason);
  }

  /**
   * Cancels the session's prompt, waits for it to end, and deletes the session
   * from the store. With a store that has leases, a session another live
   * process is running is not deleted under it: `SessionBusyError`.
   */
  async remove(id: string): Promise<boolean> {
    checkSessionId(id);
    const live = this.#live.get(id);
    if (live !== undefined) {
      const session = await live.catch(() => undefined);
      if (session !== undefined) {
        session.cancel('session removed');
        await session.idle();
      }
      this.#live.delete(id);
    }
    const store = this.#options.store;
    if (store.lease === undefined) return store.delete(id);
    let lease: SessionLease;
    try {
      lease = await store.lease(id);
    } catch (error) {
      if (AgentError.isInstance(error) && error.code === 'session_not_found') return false;
      throw error;
    }
    try {
      return await store.delete(id);
    } finally {
      await lease.release();
    }
  }

  /** Forgets an open session in this process (it stays stored); the next `get` loads it again. */
  close(id: string): void {
    this.#live.delete(id);
  }

  async #load(id: string): Promise<Session> {
    const loaded = await restoreSession(this.#options.store, id);
    const options = await this.#options.agentOptions({ id, metadata: loaded.state.metadata });
    const idempotent = new Set(
      (options.tools ?? []).filter((tool) => tool.idempotent === true).map((tool) => tool.name),
    );
    const restored =
      loaded.state.status === 'running' ? await this.#repair(loaded, (name) => idempotent.has(name)) : loaded;
    return this.#open(restored.state, options);
  }

  /**
   * Repairs a session its log shows running, unless another live process
   * runs it. With a store that has leases the repair holds the session's
   * lease and reads the session again under it (the run may have ended
   * meanwhile); a busy lease leaves the session as loaded, status `running`,
   * and its prompts are refused until it is loaded again (`SessionBusyError`
   * while that run goes on, `SessionConflictError` once it is over).
   */
  async #repair(loaded: RestoredSession, isIdempotent: (name: string) => boolean): Promise<RestoredSession> {
    const store = this.#options.store;
    const id = loaded.state.id;
    let lease: SessionLease | undefined;
    if (store.lease !== undefined) {
      try {
        lease = await store.lease(id);
      } catch (error) {
        if (!(AgentError.isInstance(error) && error.code === 'session_busy')) throw error;
        this.#logger.debug('a session is running in another process; loaded as it is', {
          sessionId: id,
          holder: (error as SessionBusyError).holder,
        });
        return loaded;
      }
    }
    try {
      const restored = lease === undefined ? loaded : await restoreSession(store, id);
      const state = restored.state;
      if (repairInterrupted(restored, isIdempotent)) {
        this.#logger.warn('a session was left running by a stopped process; repaired to interrupted', {
          sessionId: id,
          unfinishedCalls: restored.unfinishedCalls.length,
        });
        // The repair is stored at once, so every process sees the same answers for the interrupted calls.
        state.version = (await store.save(state, { expectedVersion: state.version, lease })).version;
      }
      return restored;
    } finally {
      await lease?.release();
    }
  }

  async #open(state: SessionState, given?: SessionAgentOptions): Promise<Session> {
    const options = given ?? (await this.#options.agentOptions({ id: state.id, metadata: state.metadata }));
    const journal = new SessionJournal(this.#options.store, state, this.#options);
    const agent = new Agent({
      ...options,
      messages: state.messages,
      journal,
      pendingApprovals: state.pendingApprovals,
      alwaysAllowedTools: state.alwaysAllowedTools,
      ...(state.orchestratorState === undefined ? {} : { orchestratorState: state.orchestratorState }),
    });
    return new Session(agent, journal);
  }

  #track(id: string, opening: Promise<Session>): Promise<Session> {
    this.#live.set(id, opening);
    opening.catch((error: unknown) => {
      if (this.#live.get(id) === opening) this.#live.delete(id);
      this.#logger.debug('a session could not be opened', {
        sessionId: id,
        error: String(toAgentError(error)),
      });
    });
    return opening;
  }
}

/** Throws `ConfigError` for options a manager cannot work with, naming the option and what it takes. */
function checkManagerOptions(options: SessionManagerOptions): void {
  const given = options as Partial<SessionManagerOptions> | undefined;
  const store = given?.store;
  if (
    typeof store?.load !== 'function' ||
    typeof store.save !== 'function' ||
    typeof store.append !== 'function'
  )
    throw new ConfigError(
      'SessionManager needs a store: a SessionStore such as new MemorySessionStore() or new FileSessionStore({ root }).',
    );
  if (typeof given?.agentOptions !== 'function') {
    const renamed = typeof (given as { agent?: unknown }).agent === 'function';
    throw new ConfigError(
      `SessionManager needs agentOptions: a function that returns each session's agent options, e.g. agentOptions: () => ({ provider, model }).${renamed ? " The option was called 'agent' before; rename it to agentOptions." : ''}`,
    );
  }
}
