import type { AgentResult } from '../result/agent-result.js';
import { AgentError } from '../errors/agent-error.js';
import { ApprovalError } from '../errors/approval-error.js';
import { SessionConflictError } from '../errors/session-conflict-error.js';
import type { AgentMessage, ToolCallBlock } from '../messages/messages.js';
import { addUsage } from '../messages/usage.js';
import type { RunJournal } from '../loop/run-journal.js';
import type { SessionEvent } from './session-event.js';
import { type SessionState, statusAfterRun } from './session-state.js';
import type { SessionLease, SessionStore } from './session-store.js';
import { isoNow } from '../time/iso-now.js';
import { redactSecrets } from '../logger/redact-secrets.js';

/** Options of `SessionJournal`. */
export interface SessionJournalOptions {
  /**
   * The end of a run rewrites the snapshot once the messages logged since the
   * last one number at least this many and at least as many as the snapshot
   * holds. Default 64.
   */
  snapshotAfter?: number;
}

/**
 * Writes a session's runs to a `SessionStore`: each message and tool call to
 * the events log as it happens, and the whole state as a snapshot only when
 * the log since the last snapshot has outgrown it, so the bytes written per
 * step follow what the step added. Keeps `state` (the caller's object) current
 * except for `messages`, which it copies in at each snapshot.
 */
export class SessionJournal implements RunJournal {
  readonly state: SessionState;
  readonly #store: SessionStore;
  readonly #snapshotAfter: number;
  #queue: SessionEvent[] = [];
  #writing: Promise<void> = Promise.resolve();
  #failure: unknown;
  #operation = 0;
  #runId = '';
  #logged = 0;
  #snapshotMessages: number;
  #claimed = false;
  /** The run's lease, passed with every write so a store refuses them once another process has taken the session over. */
  #lease: SessionLease | undefined;

  constructor(store: SessionStore, state: SessionState, options: SessionJournalOptions = {}) {
    this.#store = store;
    this.state = state;
    this.#snapshotAfter = options.snapshotAfter ?? 64;
    this.#snapshotMessages = state.messages.length;
  }

  runStarted(runId: string): void {
    // A journal that failed (a lost claim) writes nothing more, so the session keeps the status it has in the store.
    if (this.#failure !== undefined) return;
    this.#runId = runId;
    const at = isoNow();
    this.state.status = 'running';
    this.state.updatedAt = at;
    this.#queue.push({ type: 'run_started', runId, at });
  }

  message(message: AgentMessage): void {
    this.#queue.push({ type: 'message', message });
    this.#logged++;
  }

  toolStarted(call: ToolCallBlock): Promise<void> {
    this.#queue.push({
      type: 'tool_started',
      toolCallId: call.id,
      toolName: call.name,
      input: call.input,
      at: isoNow(),
    });
    return this.flush();
  }

  toolFinished(call: ToolCallBlock, outcome: { isError: boolean; durationMs: number }): Promise<void> {
    this.#queue.push({
      type: 'tool_finished',
      toolCallId: call.id,
      toolName: call.name,
      isError: outcome.isError,
      durationMs: outcome.durationMs,
    });
    return this.flush();
  }

  flush(): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#queue.length === 0) return this.#writing;
    const entries = this.#queue;
    this.#queue = [];
    const operationId = `${this.#runId || this.state.id}.${this.#operation++}`;
    // Appends go one after another, so the log keeps the order the run produced.
    this.#writing = this.#writing.then(() => this.#append(entries, operationId));
    return this.#writing;
  }

  async runEnded(result: AgentResult, approvals: { alwaysAllowedTools: string[] }): Promise<void> {
    try {
      await this.#recordEnd(result, approvals.alwaysAllowedTools);
    } finally {
      // Given back only once the end is stored (or failed), so the next holder reads the whole run.
      await this.#releaseLease();
    }
  }

  async #recordEnd(result: AgentResult, alwaysAllowedTools: string[]): Promise<void> {
    const state = this.state;
    const at = isoNow();
    // A pause is plain JSON in the log, so any process can decide it after a restart.
    const pendingApprovals = result.pendingApprovals ?? [];
    // The first run's trace stays with the session: later runs, in any process, link to it.
    const firstTrace =
      state.trace === undefined ? { traceId: result.traceId, spanId: result.spanId } : undefined;
    this.#queue.push({
      type: 'run_ended',
      runId: result.runId,
      reason: result.terminateReason,
      usage: result.usage,
      at,
      ...(pendingApprovals.length === 0 ? {} : { pendingApprovals }),
      ...(result.orchestratorState === undefined ? {} : { orchestratorState: result.orchestratorState }),
      alwaysAllowedTools,
      ...(firstTrace === undefined ? {} : { trace: firstTrace }),
      ...(result.error === undefined
        ? {}
        : { error: { code: result.error.code, message: redactSecrets(result.error.message) } }),
    });
    if (firstTrace !== undefined) state.trace = firstTrace;
    await this.flush();
    state.pendingApprovals = pendingApprovals;
    if (result.orchestratorState === undefined) delete state.orchestratorState;
    else state.orchestratorState = result.orchestratorState;
    state.alwaysAllowedTools = alwaysAllowedTools;
    state.status = statusAfterRun(result.terminateReason);
    state.updatedAt = at;
    addUsage(state.usage, result.usage);
    const logged = this.#logged;
    // A claimed run left a snapshot saying `running` (what `list` shows): it is replaced by the run's end.
    const claimed = this.#claimed;
    this.#claimed = false;
    // Rewriting only once the log since the snapshot is as long as the snapshot keeps the bytes written linear.
    if (claimed || logged >= Math.max(this.#snapshotAfter, this.#snapshotMessages))
      await this.snapshot(result.messages);
  }

  /**
   * Claims the session for a run (see `RunJournal.claim`):
   * - takes the store's lease, if it has one (`SessionBusyError` while another process runs it);
   * - refuses a session that was running in another process when this one
   *   loaded it (`SessionConflictError`): its history here is not the one to go on from;
   * - refuses when the log holds records this process has not read
   *   (`SessionConflictError`);
   * - for a run that applies decisions, saves a snapshot with `messages` as its
   *   history and status `running`, only if the store still holds the version
   *   this journal loaded or last saved. The end of that run rewrites the
   *   snapshot, so it never stays `running`.
   *
   * A run that applies decisions and loses any of these to another process
   * gets `ApprovalError` (`approval_claimed`) with the refusal as its cause. A
   * refused claim fails the journal: nothing more is written, and the lease is given back.
   */
  async claim(messages: readonly AgentMessage[], run: { decisions: boolean }): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    // Earlier appends are done before the log is compared; the run's own records stay queued until the claim holds.
    await this.#writing;
    const state = this.state;
    try {
      if (this.#store.lease !== undefined) this.#lease = await this.#store.lease(state.id);
      // Loaded while another process ran it, and that run is over: this history is not the one to go on from.
      if (state.status === 'running')
        throw new SessionConflictError(state.id, state.version, undefined, endedMessage(state.id));
      // A log that grew past what this process read means another process ran the session since.
      const newer = await this.#store.read(state.id, { fromSeq: state.lastSeq + 1 });
      if (newer.length > 0) {
        if (run.decisions) throw new ApprovalError('approval_claimed', claimedMessage(state.id));
        throw new SessionConflictError(state.id, state.version, undefined, changedMessage(state.id));
      }
      if (run.decisions) await this.#claimDecisions(messages);
    } catch (error) {
      // For decisions, losing to another process, running or done, is one outcome: someone else decided.
      this.#failure =
        run.decisions &&
        AgentError.isInstance(error) &&
        (error.code === 'session_conflict' || error.code === 'session_busy')
          ? new ApprovalError('approval_claimed', claimedMessage(state.id), undefined, { cause: error })
          : error;
      // The refusal is what the caller needs to see; a lease that cannot be given back lapses.
      await this.#releaseLease().catch(() => {});
      throw this.#failure;
    }
  }

  async #claimDecisions(messages: readonly AgentMessage[]): Promise<void> {
    const state = this.state;
    const claimed: SessionState = {
      ...state,
      status: 'running',
      updatedAt: isoNow(),
      messages: messages.slice(),
    };
    const { version } = await this.#store.save(claimed, {
      expectedVersion: state.version,
      lease: this.#lease,
    });
    state.messages = claimed.messages;
    state.version = version;
    this.#logged = 0;
    this.#snapshotMessages = messages.length;
    this.#claimed = true;
  }

  /** Gives the run's lease back; a failed release is reported as a store failure, and the lease lapses in the store's own time. */
  async #releaseLease(): Promise<void> {
    const lease = this.#lease;
    if (lease === undefined) return;
    this.#lease = undefined;
    await lease.release();
  }

  /** Saves the whole state with `messages` as its history, from the version this journal last saved. */
  async snapshot(messages: readonly AgentMessage[]): Promise<void> {
    await this.flush();
    const state = this.state;
    state.messages = messages.slice();
    const { version } = await this.#store.save(state, { expectedVersion: state.version, lease: this.#lease });
    state.version = version;
    this.#logged = 0;
    this.#snapshotMessages = messages.length;
  }

  async #append(entries: SessionEvent[], operationId: string): Promise<void> {
    if (this.#failure !== undefined) throw this.#failure;
    try {
      const { lastSeq } = await this.#store.append(this.state.id, entries, {
        operationId,
        lease: this.#lease,
      });
      this.state.lastSeq = lastSeq;
    } catch (error) {
      this.#failure = error;
      throw error;
    }
  }
}

function endedMessage(sessionId: string): string {
  return `Session '${sessionId}' was running in another process when this one loaded it; that run has ended or its process stopped. Nothing ran here. Load the session again (manager.close(id), then manager.get(id)) to see how it ended, and retry.`;
}

function changedMessage(sessionId: string): string {
  return `Another process ran session '${sessionId}' since this one loaded it, so this run did not start and nothing ran here. Load the session again (manager.close(id), then manager.get(id)) and retry.`;
}

function claimedMessage(sessionId: string): string {
  return `Another process already decided (or changed, or is running) session '${sessionId}' since this one loaded it, so these decisions were not applied and nothing ran here. Load the session again (manager.close(id), then manager.get(id)) to see the outcome.`;
}
