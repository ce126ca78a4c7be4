import type { Agent } from '../agent/agent.js';
import type { PromptOptions } from '../agent/prompt-options.js';
import type { AgentRun } from '../agent/agent-run.js';
import type { PromptInput } from '../agent/prompt-input.js';
import type { ResumeOptions } from '../agent/resume.js';
import { SessionBusyError } from '../errors/session-busy-error.js';
import type { AgentMessage, Usage } from '../messages/messages.js';
import type { SessionJournal } from './session-journal.js';
import type { SessionState, SessionStatus } from './session-state.js';

/**
 * One stored conversation with its agent, made by `SessionManager`. Its runs
 * are written to the store as they happen (log before execute), so another
 * process can pick it up after a crash. One prompt runs at a time.
 */
export class Session {
  readonly id: string;
  /** The session's agent: subscribe to it, steer it, read its tools. Prompt through the session. */
  readonly agent: Agent;
  readonly #journal: SessionJournal;
  #current: Promise<unknown> | undefined;

  /** @internal Made by `SessionManager`. */
  constructor(agent: Agent, journal: SessionJournal) {
    this.id = journal.state.id;
    this.agent = agent;
    this.#journal = journal;
  }

  /** The history, live. */
  get messages(): readonly AgentMessage[] {
    return this.agent.messages;
  }

  get status(): SessionStatus {
    return this.agent.isRunning ? 'running' : this.#journal.state.status;
  }

  /** Sequence number of the last events-log record written or read for this session. */
  get lastSeq(): number {
    return this.#journal.state.lastSeq;
  }

  /** The stored snapshot's version (saves so far). */
  get version(): number {
    return this.#journal.state.version;
  }

  get metadata(): Record<string, unknown> {
    return this.#journal.state.metadata;
  }

  /** Usage summed over every finished run of the session. */
  get usage(): Usage {
    return this.#journal.state.usage;
  }

  /**
   * Starts a run for `input`, as `agent.prompt` does, with every step written
   * to the store. Throws `SessionBusyError` while a prompt is running.
   */
  prompt(input: PromptInput, options?: PromptOptions): AgentRun {
    if (this.agent.isRunning) throw new SessionBusyError(this.id);
    return this.#track(this.agent.prompt(input, this.#linked(options ?? {})));
  }

  /**
   * Continues the session without a new prompt, as `agent.resume` does: runs
   * the tool calls still waiting at the end of the history (after a crash),
   * then goes on with the model. Throws `SessionBusyError` while a prompt is running.
   */
  resume(options?: ResumeOptions): AgentRun {
    if (this.agent.isRunning) throw new SessionBusyError(this.id);
    return this.#track(this.agent.resume(this.#linked(options ?? {})));
  }

  /** Aborts the running prompt, if any; the run ends `aborted` and the session `idle` with a valid history. */
  cancel(reason?: unknown): boolean {
    if (!this.agent.isRunning) return false;
    this.agent.abort(reason);
    return true;
  }

  /** Resolves once no prompt of this session is running (at once if none is); never rejects. */
  async idle(): Promise<void> {
    while (this.#current !== undefined) await this.#current;
  }

  /** Links a run to the session's first trace, unless the caller set links or a parent trace itself. */
  #linked<Options extends PromptOptions>(options: Options): Options {
    const first = this.#journal.state.trace;
    if (first?.spanId === undefined || options.links !== undefined) return options;
    return { ...options, links: [{ traceId: first.traceId, spanId: first.spanId }] };
  }

  #track(run: AgentRun): AgentRun {
    const done = run.result().then(() => {
      if (this.#current === done) this.#current = undefined;
    });
    this.#current = done;
    return run;
  }

  /** Writes the whole state as a snapshot now (the journal otherwise does it when the log outgrows it). */
  async save(): Promise<void> {
    if (this.agent.isRunning) throw new SessionBusyError(this.id);
    await this.#journal.snapshot(this.agent.messages);
  }

  /** The session as plain JSON, as a store would hold it. */
  toJSON(): SessionState {
    return { ...this.#journal.state, status: this.status, messages: this.agent.messages.slice() };
  }
}
