import type { Diff, SessionUpdate } from '@agentclientprotocol/sdk';
import {
  type AgentEvent,
  type AgentMessage,
  type AnyTool,
  messageText,
  type ToolCallBlock,
} from '@agent-core/core';
import { editDiffOf, isEditCall, type ReadCurrentText } from './edit-diff.js';
import { PlanTracker } from './plan-tracker.js';
import type { RecordedPlan } from './session-record.js';
import { contentOfToolResult, viewOfToolCall } from './tool-call-view.js';

/** How the live stream showed the messages of one run, for a faithful replay later. */
export interface RunDisplay {
  hidden: number[];
  thoughts: number[];
  plans: RecordedPlan[];
}

/** What `LiveUpdates` needs from its session. */
export interface LiveUpdatesOptions {
  /** The session's working directory, for absolute tool-call locations. */
  cwd: string;
  /** The session's history, live. */
  history(): readonly AgentMessage[];
  /** The tool a call names, for its risk. */
  toolOf(name: string): AnyTool | undefined;
  /** Sends one update to the editor, in order. */
  send(update: SessionUpdate): void;
  /** The model's context window in tokens, when known: usage is shown against it. */
  contextSize?(): number | undefined;
  /** What the session cost before the current run, in US dollars: the usage shows the session's whole cost. */
  costBefore?(): number | undefined;
  /** Called at the end of every run with how its messages were shown. */
  onRunEnd?(display: RunDisplay): void;
  /** Reads a file as the editor has it, for the diff of a write or edit before it runs; none: no such diff. */
  readText?: ReadCurrentText;
}

type Shown = 'text' | 'thought' | 'none';

/**
 * Turns a session's agent events into ACP `session/update`s as they happen
 * (a synchronous listener, so the order is exact): text and thought chunks,
 * tool calls with their statuses, plans and usage. It also notes how each
 * message was shown, so `replayHistory` can show a stored session the same way.
 */
export class LiveUpdates {
  readonly #options: LiveUpdatesOptions;
  readonly #announced = new Set<string>();
  #plan = new PlanTracker();
  #runStart = 0;
  #promptMessages = 0;
  #attempt = { text: 0, thinking: 0 };
  #answers: { text: string; shown: Shown }[] = [];
  #plans: RecordedPlan[] = [];
  /** The diffs of write and edit calls, read before they run: shown while pending, kept for their result. */
  readonly #previews = new Map<string, Promise<Diff | undefined>>();
  readonly #diffs = new Map<string, Diff>();

  constructor(options: LiveUpdatesOptions) {
    this.#options = options;
  }

  /** The agent listener. */
  readonly handle = (event: AgentEvent): void => {
    const send = this.#options.send;
    switch (event.type) {
      case 'agent_start':
        this.#runStart = this.#options.history().length;
        this.#answers = [];
        this.#plans = [];
        return;
      case 'message_start':
        this.#attempt = { text: 0, thinking: 0 };
        return;
      case 'text_delta':
        this.#attempt.text++;
        send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.delta } });
        return;
      case 'thinking_delta':
        this.#attempt.thinking++;
        send({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.delta } });
        return;
      case 'message_end': {
        const shown: Shown =
          this.#attempt.text > 0 ? 'text' : this.#attempt.thinking > 0 ? 'thought' : 'none';
        this.#answers.push({ text: messageText(event.message), shown });
        return;
      }
      case 'tool_call_start':
        this.#announce(event.toolCall);
        void this.previewOf(event.toolCall);
        return;
      case 'tool_call_end': {
        const id = event.toolCall.id;
        this.#announce(event.toolCall);
        send({
          sessionUpdate: 'tool_call_update',
          toolCallId: id,
          status: event.isError ? 'failed' : 'completed',
          content: contentOfToolResult(
            event.toolCall,
            event.result,
            event.isError,
            this.#options.cwd,
            this.#diffs.get(id),
          ),
        });
        this.#forget(id);
        return;
      }
      case 'tool_skipped':
        this.#forget(event.toolCall.id);
        this.#announce(event.toolCall);
        send({
          sessionUpdate: 'tool_call_update',
          toolCallId: event.toolCall.id,
          status: 'failed',
          content: [{ type: 'content', content: { type: 'text', text: event.reason } }],
        });
        return;
      case 'custom': {
        const entries = this.#plan.update(event.name, event.data);
        if (entries === undefined) return;
        this.#plans.push({ at: this.#options.history().length, entries: this.#plan.entries() });
        send({ sessionUpdate: 'plan', entries });
        return;
      }
      case 'usage': {
        const size = this.#options.contextSize?.();
        if (size === undefined) return;
        const used = event.usage.input + event.usage.cacheRead + event.usage.cacheWrite + event.usage.output;
        const cost =
          event.total.cost === undefined ? undefined : (this.#options.costBefore?.() ?? 0) + event.total.cost;
        send({
          sessionUpdate: 'usage_update',
          used,
          size,
          ...(cost === undefined ? {} : { cost: { amount: cost, currency: 'USD' } }),
        });
        return;
      }
      case 'agent_end':
        this.#options.onRunEnd?.(this.#display());
        this.#promptMessages = 0;
        return;
      default:
        return;
    }
  };

  /** Says that the next run starts with a prompt of this many messages (shown by the editor itself). */
  expectPrompt(messages: number): void {
    this.#promptMessages = messages;
    // Calls announced earlier stay announced across a pause and its resume, never shown twice.
    this.#announced.clear();
  }

  /** Marks a call as running: its tool has started (called by the wrapped tool). */
  toolStarted(toolCallId: string): void {
    this.#options.send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
  }

  /**
   * The diff of a write or edit call, read from the file before the call runs
   * (once per call): the pending call is updated with it, the permission
   * request and the result carry it. Undefined for other calls.
   */
  previewOf(call: ToolCallBlock): Promise<Diff | undefined> {
    const known = this.#previews.get(call.id);
    if (known !== undefined) return known;
    const read = this.#options.readText;
    if (read === undefined || !isEditCall(call)) return Promise.resolve(undefined);
    const preview: Promise<Diff | undefined> = editDiffOf(call, this.#options.cwd, read).then((diff) => {
      // A call that ended (or was skipped) meanwhile shows its result, not a late preview.
      if (diff === undefined || this.#previews.get(call.id) !== preview) return diff;
      this.#diffs.set(call.id, diff);
      this.#options.send({
        sessionUpdate: 'tool_call_update',
        toolCallId: call.id,
        content: [{ type: 'diff', ...diff }],
      });
      return diff;
    });
    this.#previews.set(call.id, preview);
    return preview;
  }

  /** Resolves once the call's file was read for its diff (a write must not change it first). */
  async beforeToolRuns(toolCallId: string): Promise<void> {
    await this.#previews.get(toolCallId);
  }

  #forget(toolCallId: string): void {
    this.#previews.delete(toolCallId);
    this.#diffs.delete(toolCallId);
  }

  #announce(call: ToolCallBlock): void {
    if (this.#announced.has(call.id)) return;
    this.#announced.add(call.id);
    const view = viewOfToolCall(call, this.#options.toolOf(call.name), this.#options.cwd);
    this.#options.send({
      sessionUpdate: 'tool_call',
      toolCallId: call.id,
      title: view.title,
      kind: view.kind,
      status: 'pending',
      locations: view.locations,
      rawInput: call.input,
    });
  }

  /**
   * How this run's messages were shown: user messages the orchestrator added
   * (never streamed), answers streamed as thoughts or not at all, and plans.
   */
  #display(): RunDisplay {
    const history = this.#options.history();
    const display: RunDisplay = { hidden: [], thoughts: [], plans: this.#plans };
    let answer = 0;
    // The prompt is appended after agent_start: it is the user's own message, not the orchestrator's.
    for (let index = this.#runStart + this.#promptMessages; index < history.length; index++) {
      const message = history[index] as AgentMessage & { role: string };
      if (message.role === 'user') display.hidden.push(index);
      if (message.role !== 'assistant') continue;
      const text = messageText(message as Parameters<typeof messageText>[0]);
      if (text === '') continue;
      // The answers of failed attempts have no message in the history: skip to the matching one.
      let found = answer;
      while (found < this.#answers.length && this.#answers[found]?.text !== text) found++;
      const record = this.#answers[found];
      if (record === undefined) continue;
      answer = found + 1;
      if (record.shown === 'thought') display.thoughts.push(index);
      if (record.shown === 'none') display.hidden.push(index);
    }
    return display;
  }
}
