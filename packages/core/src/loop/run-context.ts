import type { TerminateReason } from '../result/agent-result.js';
import { AgentError, toAgentError } from '../errors/agent-error.js';
import type { AgentEvent, AgentEventInput } from '../events/agent-event.js';
import { sentMessages } from './sent-messages.js';
import type {
  AgentMessage,
  AssistantMessage,
  Message,
  ToolCallBlock,
  ToolResultMessage,
  Usage,
} from '../messages/messages.js';
import type {
  ModelCallOptions,
  ModelCallResult,
  OrchestratorContext,
  RunSettings,
} from '../orchestrator/orchestrator.js';
import type { ToolSpec } from '../provider/provider.js';
import { EventKind } from '../events/run-events.js';
import { callModel } from './call-model.js';
import { appendResult, executeTool, executeTools } from './execute-tool.js';
import { takeHeld } from './held-results.js';
import {
  answerLater,
  checkEmitted,
  claimBatch,
  claimCall,
  danglingIn,
  plainState,
  refuseLater,
  runEndedError,
  stoppedError,
  stopReason,
  unansweredError,
} from './context-checks.js';
import { ContractError } from '../orchestrator/contract-error.js';
import type { OrchestratorTool } from '../orchestrator/orchestrator.js';
import { drainQueue } from './drain-queue.js';
import { stampedEvent } from './stamped-event.js';
import { freezeMessage } from './freeze-message.js';
import { historyView, orchestratorEditError, restoreView, viewChanged } from './history-view.js';
import type { RunState } from './run-state.js';
import { guardModelCall } from './guard-check.js';
import { RunAccess } from './tool-run-access.js';
import type { RunJournal } from './run-journal.js';

/** The options of a model call made without any; only ever read. */
const noOptions: ModelCallOptions = Object.freeze({});

/** The `OrchestratorContext` of one run. */
export class RunContext implements OrchestratorContext {
  readonly state: RunState;

  constructor(state: RunState) {
    this.state = state;
  }

  /** The run's signal, made on first read (see `RunAbort`); `aborted` answers without one. */
  get signal(): AbortSignal {
    return this.state.abort.signal;
  }

  get aborted(): boolean {
    const state = this.state;
    if (state.stopCause === undefined) return false;
    // Read as true: the orchestrator knows, and a helper it calls next is refused.
    state.stopTold = true;
    return true;
  }

  get runId(): string {
    return this.state.runId;
  }
  get messages(): readonly AgentMessage[] {
    return historyView(this.state);
  }
  get tools(): readonly OrchestratorTool[] {
    return this.state.toolViews;
  }
  get resuming(): boolean {
    return this.state.resuming;
  }
  get savedState(): unknown {
    return this.state.savedState;
  }
  get toolSpecs(): readonly ToolSpec[] {
    return this.state.toolSpecs;
  }
  get settings(): RunSettings {
    return this.state.settings;
  }
  get turn(): number {
    return this.state.turn;
  }
  get usage(): Usage {
    return this.state.usage;
  }
  /** The handle a tool gets as `ToolContext.run`: one per run, made on first use. */
  get runAccess(): RunAccess {
    const state = this.state;
    if (state.runAccess === undefined) state.runAccess = new RunAccess(this);
    return state.runAccess;
  }

  nextTurn(): TerminateReason | undefined {
    const state = this.state;
    if (state.ended) return state.stopped ?? 'aborted';
    const stop = this.#stopReason();
    if (stop !== undefined) {
      this.#stop(stop);
      state.stopTold = true;
      return stop;
    }
    this.#openTurn();
    return undefined;
  }

  #openTurn(): void {
    const state = this.state;
    // A turn the orchestrator left open ends here, so every turn_start has its turn_end.
    if (state.turnOpen) this.#closeTurn(state.turnMessage);
    state.turn++;
    const span = state.spans.open();
    state.turnSpan = span;
    state.turnOpen = true;
    state.turnCalled = false;
    state.turnMessage = undefined;
    state.events.emit(EventKind.turnStart, state.turn, state.seq++, span, 0, 0, undefined);
  }

  /** The reason the next turn may not start: a stop, a halt, a limit reported or reached, the guard. */
  #stopReason(): TerminateReason | undefined {
    const state = this.state;
    // stopCause is set by the run's first abort listener, so it mirrors signal.aborted without the getter.
    const stopped = stopReason(state);
    if (stopped !== undefined) return stopped;
    if (state.turn >= state.settings.maxTurns) return 'max_turns';
    const maxTokens = state.shared.options.limits?.maxTokens;
    if (maxTokens !== undefined && state.usage.input + state.usage.output >= maxTokens) return 'max_tokens';
    const governance = state.governance;
    if (governance?.guard !== undefined) return guardModelCall(this, governance);
    return undefined;
  }

  /** Records that the run was told to stop; the first time, the orchestrator's grace to return starts. */
  #stop(reason: TerminateReason): void {
    const state = this.state;
    if (state.stopped !== undefined) return;
    state.stopped = reason;
    state.onStop?.();
  }

  #closeTurn(message: AssistantMessage | undefined): void {
    const state = this.state;
    state.turnOpen = false;
    state.events.emit(EventKind.turnEnd, state.turn, state.seq++, state.turnSpan, 0, 0, message);
  }

  /** Ends a turn the orchestrator left open when the run ends. */
  closeOpenTurn(): void {
    if (this.state.turnOpen) this.#closeTurn(this.state.turnMessage);
  }

  modelMessages(): readonly Message[] {
    const state = this.state;
    const sent = sentMessages(state);
    // The history itself: handed out as the run's copy of it, as ctx.messages is.
    return sent === state.shared.messages ? (historyView(state) as Message[]) : sent;
  }

  systemPrompt(): string | undefined {
    const state = this.state;
    const source = state.systemPrompt;
    return typeof source === 'function'
      ? source({
          provider: state.shared.options.provider.name,
          model: state.settings.model,
          tools: state.tools,
        })
      : source;
  }

  endTurn(message?: AssistantMessage): void {
    const state = this.state;
    if (state.ended) throw runEndedError('endTurn');
    if (state.turnOpen) this.#closeTurn(message);
  }

  callModel(options?: ModelCallOptions): Promise<ModelCallResult> {
    const state = this.state;
    if (state.ended) return refuseLater(runEndedError('callModel'));
    let stop = stopReason(state);
    if (stop === undefined) {
      if (viewChanged(state)) {
        restoreView(state);
        return refuseLater(orchestratorEditError('ctx.callModel()'));
      }
      if (state.pending.size > 0) return refuseLater(unansweredError(state.pending.list()));
      const given = options?.messages;
      if (given !== undefined) {
        const dangling = danglingIn(given);
        if (dangling.length > 0) return refuseLater(unansweredError(dangling));
      }
      // Every model call is a turn: one made without nextTurn(), or a second in a turn, starts its own.
      if (!state.turnOpen || state.turnCalled) {
        stop = this.#stopReason();
        if (stop === undefined) this.#openTurn();
      }
    }
    if (stop !== undefined) return this.#refuseCall(stop);
    state.turnCalled = true;
    const journal = state.journal;
    // One shared empty object for the common call without options: none allocated per step.
    if (journal === undefined) return callModel(this, options ?? noOptions);
    return this.#flushThenCall(journal, options ?? noOptions);
  }

  /**
   * A model call the stopped run will not make: the first after a stop the
   * orchestrator was not told of yet ends `ok: false` with the reason; any
   * later one rejects. Both after a macrotask, so no loop can starve timers.
   */
  #refuseCall(stop: TerminateReason): Promise<ModelCallResult> {
    const state = this.state;
    this.#stop(stop);
    const error = stoppedError(state, 'callModel');
    if (state.stopTold) return refuseLater(error);
    state.stopTold = true;
    return answerLater({
      ok: false,
      reason: stop as Extract<ModelCallResult, { ok: false }>['reason'],
      error,
    });
  }

  /** Makes every message appended so far durable before the model sees it. */
  async #flushThenCall(journal: RunJournal, options: ModelCallOptions): Promise<ModelCallResult> {
    try {
      await journal.flush();
    } catch (error) {
      return { ok: false, reason: 'error', error: toAgentError(error, 'session_store_failed') };
    }
    return callModel(this, options);
  }

  executeTool(call: ToolCallBlock): Promise<ToolResultMessage> {
    const state = this.state;
    // A stop the orchestrator was told of refuses the call; one it was not yet told of answers it as not run.
    if (state.ended || (state.stopTold && stopReason(state) !== undefined))
      return refuseLater(stoppedError(state, 'executeTool'));
    const claimed = claimCall(state, call, 'executeTool');
    if (claimed instanceof ContractError) return refuseLater(claimed);
    return executeTool(this, claimed);
  }

  executeTools(calls: readonly ToolCallBlock[]): Promise<ToolResultMessage[]> {
    const state = this.state;
    if (state.ended || (state.stopTold && stopReason(state) !== undefined))
      return refuseLater(stoppedError(state, 'executeTools'));
    const claimed = claimBatch(state, calls);
    if (claimed instanceof ContractError) return refuseLater(claimed);
    return executeTools(this, claimed);
  }

  skipTool(call: ToolCallBlock, reason: string): ToolResultMessage {
    const state = this.state;
    if (state.ended) throw runEndedError('skipTool');
    const claimed = claimCall(state, call, 'skipTool');
    if (claimed instanceof ContractError) throw claimed;
    return this.#answerUnrun(claimed, `Tool call skipped: ${reason}`, reason);
  }

  /**
   * Answers a call that never ran with an error result, records it and emits
   * `tool_skipped`; a call that did run while an earlier one paused gets the
   * result it had instead.
   */
  #answerUnrun(call: ToolCallBlock, content: string, reason: string): ToolResultMessage {
    const state = this.state;
    if (state.held !== undefined) {
      const held = takeHeld(state, call.id);
      if (held !== undefined) return appendResult(this, held);
    }
    const result: ToolResultMessage = {
      role: 'toolResult',
      toolCallId: call.id,
      toolName: call.name,
      content,
      isError: true,
    };
    state.toolCalls.push({ call, content, isError: true, durationMs: 0 });
    this.deliver({
      type: 'tool_skipped',
      runId: state.runId,
      turn: state.turn,
      seq: state.seq++,
      spanId: state.spans.text(state.spans.open()),
      parentSpanId: state.spans.text(state.turnSpan),
      toolCall: call,
      reason,
    });
    this.append(result);
    return result;
  }

  pollSteering(): AgentMessage[] {
    const shared = this.state.shared;
    return drainQueue(this, shared.steeringQueue, shared.options.getSteeringMessages, 'steering');
  }

  pollFollowUp(): AgentMessage[] {
    const shared = this.state.shared;
    return drainQueue(this, shared.followUpQueue, shared.options.getFollowUpMessages, 'follow_up');
  }

  /** Moves messages queued while no run was active into the history, ahead of the prompt. */
  takeQueued(): void {
    const shared = this.state.shared;
    drainQueue(this, shared.steeringQueue, undefined, 'steering');
    drainQueue(this, shared.followUpQueue, undefined, 'follow_up');
  }

  append(message: AgentMessage): void {
    const state = this.state;
    if (state.ended) throw runEndedError('append');
    const role = (message as { role: string }).role;
    if (role === 'toolResult') {
      const id = (message as ToolResultMessage).toolCallId;
      if (!state.pending.delete(id)) {
        throw new AgentError(
          'unexpected_tool_result',
          `A result for tool call '${id}' was appended, but no unanswered call has that id. Each call gets exactly one result.`,
        );
      }
    } else if (state.pending.size > 0) {
      const reason = 'a new message arrived before it could run.';
      for (const call of state.pending.list())
        this.#answerUnrun(call, `Tool call skipped: ${reason}`, reason);
    }
    // Frozen as it joins: a provider or listener handed the history cannot change it in place.
    state.shared.messages.push(freezeMessage(message));
    // The run's copy of the history handed out keeps in step.
    state.view?.push(message);
    if (state.journal !== undefined) state.journal.message(message);
    if (role === 'assistant') {
      const assistant = message as AssistantMessage;
      state.lastAssistant = assistant;
      const ids = state.shared.toolCallIds;
      for (const block of assistant.content) {
        if (block.type !== 'toolCall') continue;
        state.pending.add(block);
        ids?.add(block.id);
      }
    } else if (role !== 'user' && role !== 'toolResult') {
      state.shared.customMessages++;
    }
  }

  emit(event: AgentEventInput): void {
    const state = this.state;
    if (state.ended) throw runEndedError('emit');
    // Deltas come by the dozen per step (ReAct streams its answer through here): kept as
    // records like the loop's own, as a spread of inputs of many shapes is a slow generic copy.
    if (event.type === 'text_delta' || event.type === 'thinking_delta') {
      state.events.emit(
        event.type === 'text_delta' ? EventKind.textDelta : EventKind.thinkingDelta,
        state.turn,
        state.seq++,
        0,
        0,
        0,
        event.delta,
      );
      return;
    }
    checkEmitted(event.type);
    this.deliver(stampedEvent(event, state.runId, state.turn, state.seq++));
  }

  /** Hands an event to the run's channel and the agent's listeners. */
  deliver(event: AgentEvent): void {
    this.state.events.deliver(event);
  }

  saveState(state: unknown): void {
    if (this.state.ended) throw runEndedError('saveState');
    this.state.orchestratorState = plainState(state);
  }

  /** Gives every unanswered call an error result, so the history stays valid whatever ended the run. */
  closePending(reason: string): void {
    const state = this.state;
    for (const call of state.pending.list()) this.#answerUnrun(call, `Tool call not run: ${reason}`, reason);
  }
}
