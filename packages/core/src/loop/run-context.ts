import type { TerminateReason } from '../result/agent-result.js';
import { AgentError, toAgentError } from '../errors/agent-error.js';
import type { AgentEvent, AgentEventInput } from '../events/agent-event.js';
import { windowMessages } from './fit-context.js';
import { isModelMessage } from '../messages/messages.js';
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
import type { AnyTool } from '../tool/tool.js';
import { EventKind } from '../events/run-events.js';
import { callModel } from './call-model.js';
import { appendResult, executeTool, executeTools } from './execute-tool.js';
import { takeHeld } from './held-results.js';
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
    return this.state.stopCause !== undefined;
  }

  get runId(): string {
    return this.state.runId;
  }
  get messages(): readonly AgentMessage[] {
    return this.state.shared.messages;
  }
  get tools(): readonly AnyTool[] {
    return this.state.tools;
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
    // stopCause is set by the run's first abort listener, so it mirrors signal.aborted without the getter.
    if (state.stopCause !== undefined) return state.stopCause;
    if (state.halt !== undefined) return state.halt.reason;
    if (state.turn >= state.settings.maxTurns) return 'max_turns';
    const maxTokens = state.shared.options.limits?.maxTokens;
    if (maxTokens !== undefined && state.usage.input + state.usage.output >= maxTokens) return 'max_tokens';
    const governance = state.governance;
    if (governance?.guard !== undefined) {
      const stop = guardModelCall(this, governance);
      if (stop !== undefined) return stop;
    }
    state.turn++;
    const span = state.spans.open();
    state.turnSpan = span;
    state.shared.events.emit(EventKind.turnStart, state.turn, state.seq++, span, 0, 0, undefined);
    return undefined;
  }

  modelMessages(): readonly Message[] {
    const state = this.state;
    const shared = state.shared;
    const history = shared.messages;
    // A context window keeps its own view: the compacted history, converted.
    const window = shared.contextWindow;
    if (window !== undefined) return windowMessages(window, shared);
    const convert = shared.options.convertToLlm;
    // The live history, not a copy: without app-defined messages there is nothing to convert.
    if (convert === undefined && shared.customMessages === 0) return history as Message[];
    const cached = state.modelView;
    if (cached !== undefined && state.modelViewLength === history.length) return cached;
    let view: Message[];
    if (convert !== undefined) view = [...convert(history)];
    else if (cached !== undefined && state.modelViewLength < history.length) {
      // The history only grows during a run: filter what was added since the last call.
      view = cached;
      for (let index = state.modelViewLength; index < history.length; index++) {
        const message = history[index] as AgentMessage;
        if (isModelMessage(message)) view.push(message);
      }
    } else view = history.filter(isModelMessage);
    state.modelView = view;
    state.modelViewLength = history.length;
    return view;
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
    state.shared.events.emit(EventKind.turnEnd, state.turn, state.seq++, state.turnSpan, 0, 0, message);
  }

  callModel(options?: ModelCallOptions): Promise<ModelCallResult> {
    const journal = this.state.journal;
    // One shared empty object for the common call without options: none allocated per step.
    if (journal === undefined) return callModel(this, options ?? noOptions);
    return this.#flushThenCall(journal, options ?? noOptions);
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
    return executeTool(this, call);
  }

  executeTools(calls: readonly ToolCallBlock[]): Promise<ToolResultMessage[]> {
    return executeTools(this, calls);
  }

  skipTool(call: ToolCallBlock, reason: string): ToolResultMessage {
    return this.#answerUnrun(call, `Tool call skipped: ${reason}`, reason);
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
    return this.#drain(shared.steeringQueue, shared.options.getSteeringMessages, 'steering');
  }

  pollFollowUp(): AgentMessage[] {
    const shared = this.state.shared;
    return this.#drain(shared.followUpQueue, shared.options.getFollowUpMessages, 'follow_up');
  }

  #drain(
    queue: AgentMessage[],
    source: (() => AgentMessage[]) | undefined,
    type: 'steering' | 'follow_up',
  ): AgentMessage[] {
    const fromSource = source?.();
    if (queue.length === 0 && (fromSource === undefined || fromSource.length === 0)) return [];
    // Taken from the queue and appended in one synchronous step: a message is always in exactly one place.
    const messages = queue.splice(0, queue.length);
    if (fromSource !== undefined) messages.push(...fromSource);
    const state = this.state;
    for (const message of messages) {
      // Appending first answers any unanswered calls as skipped, so the events follow the history's order.
      this.append(message);
      this.deliver({ type, runId: state.runId, turn: state.turn, seq: state.seq++, message });
    }
    return messages;
  }

  /** Moves messages queued while no run was active into the history, ahead of the prompt. */
  takeQueued(): void {
    const shared = this.state.shared;
    this.#drain(shared.steeringQueue, undefined, 'steering');
    this.#drain(shared.followUpQueue, undefined, 'follow_up');
  }

  append(message: AgentMessage): void {
    const state = this.state;
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
      for (const call of state.pending.list()) {
        this.skipTool(call, 'a new message arrived before it could run.');
      }
    }
    state.shared.messages.push(message);
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
    // Deltas come by the dozen per step (ReAct streams its answer through here): kept as
    // records like the loop's own, as a spread of inputs of many shapes is a slow generic copy.
    if (event.type === 'text_delta' || event.type === 'thinking_delta') {
      state.shared.events.emit(
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
    // Not a spread: on Node 20 a spread of inputs of many shapes (governance events, a subagent's
    // forwarded events) is a slow generic copy, about 1 µs, where Object.assign takes a fifth of it.
    // Assign would set an own `__proto__` key as the prototype, so such an input is spread.
    const input = event as Record<string, unknown>;
    const stamped = Object.hasOwn(input, '__proto__') ? { ...input } : Object.assign({}, input);
    stamped.runId = state.runId;
    stamped.turn = state.turn;
    stamped.seq = state.seq++;
    this.deliver(stamped as unknown as AgentEvent);
  }

  /** Hands an event to the run's channel and the agent's listeners. */
  deliver(event: AgentEvent): void {
    this.state.shared.events.deliver(event);
  }

  /** Gives every unanswered call an error result, so the history stays valid whatever ended the run. */
  closePending(reason: string): void {
    const state = this.state;
    for (const call of state.pending.list()) this.#answerUnrun(call, `Tool call not run: ${reason}`, reason);
  }
}
