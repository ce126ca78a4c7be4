import {
  type AgentContext,
  type AvailableCommand,
  type PromptResponse,
  RequestError,
  type SessionConfigOption,
  type SessionUpdate,
} from '@agentclientprotocol/sdk';
import type {
  AgentResult,
  ApprovalDecision,
  Logger,
  PendingApproval,
  Provider,
  Session,
  TextBlock,
  ImageBlock,
} from '@agent-core/core';
import { LiveUpdates, type RunDisplay } from './live-updates.js';
import { askPermission } from './ask-permission.js';
import type { ReadCurrentText } from './edit-diff.js';
import type { AcpCommand } from './serve-acp-options.js';
import { findCommand } from './slash-command.js';
import { toRequestError } from './to-request-error.js';
import { decide } from './approval-decision.js';
import { titleOf } from './session-title.js';
import type { PermissionAnswer } from './permission-options.js';
import { replayHistory } from './replay-history.js';
import type { AcpSessionConfig, AcpSessionRecord } from './session-record.js';
import { stopReasonOf } from './stop-reason.js';
import { UpdateSender } from './update-sender.js';

/** One prompt turn, or the resume a load started for approvals left waiting. */
interface Turn {
  readonly controller: AbortController;
  cancelled: boolean;
  /** Aborts the permission request in flight, if any. */
  permission: AbortController | undefined;
  done: Promise<unknown>;
  readonly background: boolean;
}

/** What a served session needs from its server. */
export interface ServedSessionHost {
  readonly client: AgentContext;
  readonly logger: Logger;
  /** The model's context window for usage updates, when known. */
  contextSize(session: Session): number | undefined;
  /** True once the editor has gone: approvals still waiting stay stored for the next process. */
  readonly disconnected: boolean;
  /** The commands prompts may run. */
  readonly commands: readonly AcpCommand[];
  /** Reads a file of this session as the editor has it, for the diffs of writes and edits. */
  readText(sessionId: string): ReadCurrentText;
}

/** What the agent factory gave a session besides its agent options. */
export interface SessionSetup {
  close?: () => void | Promise<void>;
  contextSize?: (provider: Provider, model: string) => number | undefined;
  /** The session's own commands, after the server's. */
  commands?: readonly AcpCommand[];
}

/**
 * A session as the ACP server serves it: its updates (live and replayed), its
 * prompt turns with their permission requests and cancellation, and what it
 * records in the session's metadata for a later replay.
 */
export class ServedSession {
  readonly session: Session;
  readonly record: AcpSessionRecord;
  readonly live: LiveUpdates;
  readonly #host: ServedSessionHost;
  readonly #setup: SessionSetup;
  readonly #unsubscribe: () => void;
  #turn: Turn | undefined;
  readonly #updates: UpdateSender;
  #dirty = false;
  #commands: AvailableCommand[] | undefined;

  constructor(host: ServedSessionHost, session: Session, record: AcpSessionRecord, setup: SessionSetup) {
    this.#host = host;
    this.session = session;
    this.record = record;
    this.#setup = setup;
    this.#updates = new UpdateSender(session.id, host);
    // The record lives in the metadata, so every save of the session keeps it.
    session.metadata.acp = record;
    this.live = new LiveUpdates({
      cwd: record.cwd,
      history: () => session.messages,
      toolOf: (name) => session.agent.tools.find((tool) => tool.name === name),
      send: (update) => this.send(update),
      contextSize: () =>
        setup.contextSize?.(session.agent.options.provider, session.agent.options.model) ??
        host.contextSize(session),
      onRunEnd: (display) => this.#noteDisplay(display),
      readText: host.readText(session.id),
      // The session's usage takes in a run when it ends: during one it is what came before.
      costBefore: () => session.usage.cost,
    });
    this.#unsubscribe = session.agent.subscribe(this.live.handle);
  }

  get id(): string {
    return this.session.id;
  }

  get config(): AcpSessionConfig {
    return this.record.config ?? {};
  }

  /** True while a prompt (or a load's resume) runs. */
  get busy(): boolean {
    return this.#turn !== undefined;
  }

  /** True while a permission request of this session waits for the editor's answer. */
  get asking(): boolean {
    return this.#turn?.permission !== undefined;
  }

  /** Sends an update after every one sent before it (see `UpdateSender`). */
  send(update: SessionUpdate): void {
    this.#updates.send(update);
  }

  /** Resolves once every update sent so far is written. */
  flushed(): Promise<void> {
    return this.#updates.flushed();
  }

  /** The commands prompts of this session may run: the server's, then the session's own not named like one of them. */
  get commands(): readonly AcpCommand[] {
    const own = this.#setup.commands ?? [];
    if (own.length === 0) return this.#host.commands;
    const taken = new Set(this.#host.commands.map((command) => command.name));
    return [...this.#host.commands, ...own.filter((command) => !taken.has(command.name))];
  }

  /**
   * Given commands, keeps them to send; without, sends what it keeps, once: soon after the session opens, or
   * first thing in its first prompt if that comes sooner, so they never
   * interleave with a turn's updates.
   */
  announceCommands(commands?: AvailableCommand[]): void {
    if (commands !== undefined) {
      this.#commands = commands;
      return;
    }
    const pending = this.#commands;
    if (pending === undefined || pending.length === 0) return;
    this.#commands = [];
    this.send({ sessionUpdate: 'available_commands_update', availableCommands: pending });
  }

  /** Sends the stored history as updates (`session/load`). */
  replay(): void {
    const toolOf = (name: string) => this.session.agent.tools.find((tool) => tool.name === name);
    for (const update of replayHistory(this.session.messages, this.record, toolOf)) this.send(update);
  }

  /**
   * Runs one prompt turn: the run, then a permission request for each call
   * that waits for approval and a resume with the answers, until the run ends.
   * Answers once, after every update of the turn was sent; `cancelled` when
   * the editor cancelled, whatever the run did meanwhile.
   */
  async prompt(content: (TextBlock | ImageBlock)[]): Promise<PromptResponse> {
    // A load's resume of approvals left waiting is finished first; a second prompt is refused.
    while (this.#turn?.background === true) await this.#turn.done;
    if (this.#turn !== undefined) {
      throw RequestError.invalidRequest(
        { sessionId: this.id },
        `session ${this.id} is already answering a prompt; wait for its answer or send session/cancel first`,
      );
    }
    this.announceCommands();
    const command = findCommand(content, this.commands);
    if (command !== undefined) return this.#runCommand(command.command, command.input);
    const turn = this.#startTurn(false);
    this.#titleFrom(content);
    let result: AgentResult;
    try {
      this.live.expectPrompt(1);
      const run = this.session.prompt({ role: 'user', content }, { signal: turn.controller.signal });
      result = await this.#settle(await run.result(), turn);
    } finally {
      await this.#endTurn(turn);
    }
    if (turn.cancelled) return { stopReason: 'cancelled' };
    const stopReason = stopReasonOf(result);
    if (stopReason !== undefined) return { stopReason };
    const error = result.error;
    throw new RequestError(-32603, error?.message ?? `the run ended with ${result.terminateReason}`, {
      terminateReason: result.terminateReason,
      ...(error === undefined ? {} : { code: error.code }),
    });
  }

  /** Runs a command typed as a prompt: its text is the answer; neither reaches the model or the history. */
  async #runCommand(command: AcpCommand, input: string): Promise<PromptResponse> {
    const turn = this.#startTurn(false);
    try {
      const text = await (command.run as NonNullable<AcpCommand['run']>)(input, {
        sessionId: this.id,
        session: this.session,
        config: this.config,
      });
      if (text !== '') this.send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    } catch (error) {
      throw toRequestError(error, this.id);
    } finally {
      await this.#endTurn(turn);
    }
    return { stopReason: 'end_turn' };
  }

  /**
   * After a load or resume: asks again for the approvals a stopped process left
   * waiting and continues the run with the answers, so each approved call runs once.
   */
  askAgain(): void {
    const pending = this.session.agent.pendingApprovals;
    if (this.#turn !== undefined || pending.length === 0 || this.session.status !== 'await_user') return;
    const turn = this.#startTurn(true);
    const paused = { terminateReason: 'await_user', pendingApprovals: pending } as AgentResult;
    void this.#settle(paused, turn)
      .catch((error: unknown) =>
        this.#host.logger.warn('resuming waiting approvals failed', {
          sessionId: this.id,
          error: String(error),
        }),
      )
      .finally(() => this.#endTurn(turn));
  }

  /** Cancels the current turn: a pending permission request first, then the run. */
  cancel(): void {
    const turn = this.#turn;
    if (turn === undefined) return;
    turn.cancelled = true;
    turn.permission?.abort();
    turn.controller.abort(new Error('cancelled by the editor'));
  }

  /** Waits for the current turn, if any, to end. */
  async idle(): Promise<void> {
    while (this.#turn !== undefined) await this.#turn.done;
  }

  /** Changes config choices and stores them; the caller applies what needs the agent. */
  async storeConfig(config: AcpSessionConfig): Promise<void> {
    this.record.config = config;
    this.#dirty = true;
    await this.#saveRecord();
  }

  /** Stops listening and closes what the agent factory opened (MCP servers). */
  async close(): Promise<void> {
    this.#unsubscribe();
    await this.#setup.close?.();
  }

  /** Says what the options are now (`config_option_update`). */
  announceConfig(configOptions: SessionConfigOption[]): void {
    this.send({ sessionUpdate: 'config_option_update', configOptions });
  }

  #startTurn(background: boolean): Turn {
    let finish = () => {};
    const turn: Turn = {
      controller: new AbortController(),
      cancelled: false,
      permission: undefined,
      background,
      done: new Promise<void>((resolve) => {
        finish = resolve;
      }),
    };
    (turn as Turn & { finish: () => void }).finish = finish;
    this.#turn = turn;
    return turn;
  }

  async #endTurn(turn: Turn): Promise<void> {
    try {
      await this.#saveRecord();
    } catch (error) {
      this.#host.logger.warn('the session record could not be stored', {
        sessionId: this.id,
        error: String(error),
      });
    }
    await this.flushed();
    if (this.#turn === turn) this.#turn = undefined;
    (turn as Turn & { finish: () => void }).finish();
  }

  /** Asks for each waiting approval and resumes with the answers, until the run ends otherwise. */
  async #settle(first: AgentResult, turn: Turn): Promise<AgentResult> {
    let result = first;
    while (result.terminateReason === 'await_user' && !turn.cancelled) {
      const pending = result.pendingApprovals ?? this.session.agent.pendingApprovals;
      if (pending.length === 0) return result;
      const decisions: ApprovalDecision[] = [];
      for (const approval of pending) {
        if (this.record.rejectedTools?.includes(approval.toolName)) {
          decisions.push(decide(approval, 'deny', `the user rejected ${approval.toolName} for this session`));
          continue;
        }
        const answer = await this.#ask(approval, turn);
        // The editor is gone: the approval stays stored for the next process to ask again.
        if (answer === undefined) return result;
        if (turn.cancelled || answer.cancelled) {
          turn.cancelled = true;
          break;
        }
        if (answer.rejectAlways) {
          this.record.rejectedTools = [...(this.record.rejectedTools ?? []), approval.toolName];
          this.#dirty = true;
        }
        decisions.push(
          decide(approval, answer.decision, answer.decision === 'deny' ? 'the user rejected it' : undefined),
        );
      }
      if (turn.cancelled) {
        // Denied, in a run stopped before its first step: nothing runs, and the history stays valid.
        const denied = pending.map((approval) => decide(approval, 'deny', 'the user cancelled the prompt'));
        return await this.session.resume({ decisions: denied, signal: AbortSignal.abort() }).result();
      }
      result = await this.session.resume({ decisions, signal: turn.controller.signal }).result();
    }
    return result;
  }

  /** One `session/request_permission`, after every update so far (the editor shows the call first). */
  async #ask(approval: PendingApproval, turn: Turn): Promise<PermissionAnswer | undefined> {
    const controller = new AbortController();
    turn.permission = controller;
    try {
      const diff = await this.live.previewOf({
        type: 'toolCall',
        id: approval.toolCallId,
        name: approval.toolName,
        input: approval.input,
      });
      await this.flushed();
      // A cancel that came while the updates were written withdraws the question before it is asked.
      if (turn.cancelled) return { decision: 'deny', rejectAlways: false, cancelled: true };
      return await askPermission(this.#host, {
        sessionId: this.id,
        approval,
        tool: this.session.agent.tools.find((candidate) => candidate.name === approval.toolName),
        cwd: this.record.cwd,
        ...(diff === undefined ? {} : { diff }),
        signal: controller.signal,
      });
    } finally {
      turn.permission = undefined;
    }
  }

  /**
   * The first prompt names the session (`metadata.title`, what `session/list`
   * shows), stored with the turn's end: a store's summary may otherwise lag
   * behind its events log until the next snapshot.
   */
  #titleFrom(content: (TextBlock | ImageBlock)[]): void {
    const metadata = this.session.metadata;
    if (typeof metadata.title === 'string' && metadata.title !== '') return;
    const title = titleOf(content);
    if (title === undefined) return;
    metadata.title = title;
    this.#dirty = true;
  }

  #noteDisplay(display: RunDisplay): void {
    if (display.hidden.length === 0 && display.thoughts.length === 0 && display.plans.length === 0) return;
    const record = this.record;
    record.hidden = [...(record.hidden ?? []), ...display.hidden];
    record.thoughts = [...(record.thoughts ?? []), ...display.thoughts];
    record.plans = [...(record.plans ?? []), ...display.plans];
    this.#dirty = true;
  }

  async #saveRecord(): Promise<void> {
    if (!this.#dirty || this.session.agent.isRunning) return;
    this.#dirty = false;
    this.session.metadata.acp = this.record;
    await this.session.save();
  }
}
