import { AgentBusyError } from '../errors/agent-busy-error.js';
import { ConfigError } from '../errors/config-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { noEvents, RunEvents } from '../events/run-events.js';
import { SpanIds } from '../trace/span-ids.js';
import { randomRunId } from '../trace/run-id.js';
import { silentLogger } from '../logger/logger.js';
import type { AgentMessage } from '../messages/messages.js';
import { isModelMessage } from '../messages/messages.js';
import type { Orchestrator } from '../orchestrator/orchestrator.js';
import type { Provider } from '../provider/provider.js';
import { getDefaultOrchestratorName, getOrchestrator } from '../registry/registries.js';
import type { AnyTool } from '../tool/tool.js';
import type { AgentOptions } from './agent-options.js';
import { AgentRun } from './agent-run.js';
import { checkAgentOptions, checkModel, checkToolNames } from './check-agent-options.js';
import { ToolPreparation } from './prepared-tools.js';
import type { PromptInput } from './prompt-input.js';
import type { PromptOptions } from './prompt-options.js';
import { type RunTrace, runFrame } from './run-frame.js';
import { RunAbort } from '../loop/run-abort.js';
import type { AgentShared } from '../loop/run-state.js';
import type { PendingApproval } from '../governance/pending-approval.js';
import { type CheckedDecisions, checkDecisions, type ResumeOptions, resumingOrchestrator } from './resume.js';
import { ContextWindow } from '../context/context-window.js';
import { randomSpanId, randomTraceId, resolveParentTrace } from '../trace/trace-context.js';
import { eventLogger } from '../observability/event-logger.js';
import { freezeMessage } from '../loop/freeze-message.js';
import { plainState } from '../loop/context-checks.js';

/** The options of a prompt given none: one shared object, only ever read. */
const noPromptOptions: PromptOptions = Object.freeze({});

/** Listens to the events of every run of an agent, synchronously, as they happen. */
export type AgentListener = (event: AgentEvent) => void;

/**
 * A stateful agent: a history, steering and follow-up queues, and the
 * configuration one orchestrator drives. One prompt runs at a time.
 *
 * @example
 * const agent = new Agent({ provider: mock({ turns: [{ text: 'Hi!' }] }), model: 'mock' });
 * const result = await agent.prompt('Hello').result();
 */
export class Agent {
  readonly #shared: AgentShared;
  readonly #tools: ToolPreparation;
  /** The options as given (`setModel` replaces them); the run's shared state points at the same object. */
  #options: AgentOptions;

  constructor(options: AgentOptions) {
    checkAgentOptions(options);
    this.#options = options;
    // Resolved now so a budget nobody can know fails at construction, not mid-run.
    const contextWindow =
      options.contextWindow === undefined ? undefined : ContextWindow.from(options.contextWindow);
    contextWindow?.budgetFor(options.provider, options.model, options.maxOutputTokens);
    this.#tools = new ToolPreparation(options.tools ?? []);
    // Bound, so `onToolsChanged: agent.setTools` works as a plain callback.
    this.setTools = this.setTools.bind(this);
    // Frozen as they join the history, as every message appended later is: nothing handed the history can change it.
    const messages = (options.messages ?? []).map(freezeMessage);
    this.#shared = {
      agent: this,
      options,
      messages,
      steeringQueue: [],
      followUpQueue: [],
      customMessages: countCustom(messages),
      runAbort: undefined,
      listeners: undefined,
      events: noEvents,
      logger: options.logger ?? silentLogger,
      approvals: {
        pending: options.pendingApprovals === undefined ? [] : structuredClone([...options.pendingApprovals]),
        alwaysAllowed: [...(options.alwaysAllowedTools ?? [])],
      },
      contextWindow,
      orchestratorState: storedState(options.orchestratorState),
    };
  }

  /** The options the agent was made with (`setModel` replaces their provider and model). */
  get options(): AgentOptions {
    return this.#options;
  }

  /**
   * The tool calls the last run paused for, as plain JSON: store them with
   * the messages and pass them back as `pendingApprovals` to a new Agent in
   * any process; decide them with `resume({ decisions })`.
   */
  get pendingApprovals(): PendingApproval[] {
    return structuredClone(this.#shared.approvals.pending);
  }

  /**
   * What the orchestrator saved (`ctx.saveState`) when the last run paused,
   * as plain JSON: store it with the pause and pass it back as
   * `orchestratorState` to a new Agent in any process; undefined when the last run did not pause.
   */
  get orchestratorState(): unknown {
    const state = this.#shared.orchestratorState;
    return state === undefined ? undefined : structuredClone(state);
  }

  /** Tools a person allowed always (answer `allow_always`) in this session, as plain JSON. */
  get alwaysAllowedTools(): string[] {
    return [...this.#shared.approvals.alwaysAllowed];
  }

  /** The live history. Read-only: change it through prompts, `reset()` or a new Agent. */
  get messages(): readonly AgentMessage[] {
    return this.#shared.messages;
  }

  /** True while a prompt is running. */
  get isRunning(): boolean {
    return this.#shared.runAbort !== undefined;
  }

  /** Messages queued by `steer()` and `followUp()` that no run has taken yet. */
  get queued(): { steering: readonly AgentMessage[]; followUp: readonly AgentMessage[] } {
    return { steering: this.#shared.steeringQueue, followUp: this.#shared.followUpQueue };
  }

  /** The tools the next run offers. */
  get tools(): readonly AnyTool[] {
    return this.#tools.tools;
  }

  /**
   * Replaces the tools, from the next prompt on (a run keeps the tools it
   * started with), e.g. when an MCP server's tool list changes. Throws
   * `ConfigError` for duplicate names.
   */
  setTools(tools: readonly AnyTool[]): void {
    checkToolNames(tools);
    this.#tools.set(tools);
  }

  /**
   * Switches the model, and with `provider` the provider too, from the next
   * prompt on; the history carries over (each provider drops or converts what
   * cannot travel to it, such as another provider's thinking signatures).
   * Throws `AgentBusyError` while a run is in progress and `ConfigError` for
   * a provider without `stream()` or an empty model name.
   *
   * @example
   * agent.setModel('gpt-5', openai());
   */
  setModel(model: string, provider?: Provider): void {
    if (this.#shared.runAbort !== undefined) throw new AgentBusyError('switch the model');
    const next = provider ?? this.#options.provider;
    checkModel(next, model);
    const options = { ...this.#options, provider: next, model };
    this.#shared.contextWindow?.budgetFor(next, model, options.maxOutputTokens);
    this.#options = options;
    this.#shared.options = options;
  }

  /** Adds a listener for the events of every run; returns the function that removes it. */
  subscribe(listener: AgentListener): () => void {
    const listeners = (this.#shared.listeners ??= new Set());
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  /**
   * Starts a run for `input`. Throws `AgentBusyError` if a run is in progress
   * and `ConfigError` if no orchestrator is available.
   */
  prompt(input: PromptInput, options: PromptOptions = noPromptOptions): AgentRun {
    if (this.#shared.runAbort !== undefined) throw new AgentBusyError('start a new prompt');
    return this.#start(input, options, undefined);
  }

  /**
   * Continues a run that stopped with `await_user` (or any history ending in
   * unanswered tool calls), with no new prompt: each unanswered call goes
   * through the gate again, with `decisions` standing in for the approver
   * (approved calls run once, denied ones get error results), then the loop
   * goes on. Throws `AgentBusyError` while a run is in progress and
   * `ApprovalError` for a decision that names no call of the history or
   * other input; a decision for a call already answered is ignored.
   *
   * @example
   * const [first] = agent.pendingApprovals;
   * const result = await agent.resume({ decisions: [{ toolCallId: first.toolCallId, inputHash: first.inputHash, decision: 'allow' }] }).result();
   */
  resume(options: ResumeOptions = {}): AgentRun {
    if (this.#shared.runAbort !== undefined) throw new AgentBusyError('resume');
    const decisions = checkDecisions(
      this.#shared.messages,
      options.decisions ?? [],
      this.#shared.approvals.pending,
    );
    const { decisions: _given, ...promptOptions } = options;
    return this.#start(undefined, promptOptions, decisions);
  }

  #start(
    input: PromptInput | undefined,
    options: PromptOptions,
    decisions: CheckedDecisions | undefined,
  ): AgentRun {
    const inner = this.#orchestrator();
    const orchestrator = input === undefined ? resumingOrchestrator(inner) : inner;
    const parentTrace =
      options.trace === undefined && options.traceparent === undefined
        ? undefined
        : resolveParentTrace(options);
    const shared = this.#shared;
    const runAbort = new RunAbort();
    this.#shared.runAbort = runAbort;
    const runId = randomRunId();
    const trace: RunTrace = {
      traceId: parentTrace?.traceId ?? randomTraceId(),
      spanId: randomSpanId(),
      parentSpanId: parentTrace?.spanId,
    };
    const logger = shared.logger;
    // Only a logger the user gave is fed the run's records: the default costs nothing per event.
    const log = this.options.logger === undefined ? undefined : eventLogger(logger, trace);
    const spans = new SpanIds(trace.spanId);
    const events = new RunEvents(runId, spans, shared, log, logger);
    const channel = events.channel;
    shared.events = events;
    const startedAt = performance.now();
    const result = runFrame({
      shared,
      tools: this.#tools,
      agentOptions: this.#options,
      input,
      options,
      orchestrator,
      runAbort,
      runId,
      trace,
      events,
      startedAt,
      decisions,
    });
    return new AgentRun(runId, channel, result, runAbort);
  }

  #orchestrator(): Orchestrator {
    if (this.options.orchestrator !== undefined) return this.options.orchestrator;
    const name = getDefaultOrchestratorName();
    if (name === undefined) {
      throw new ConfigError(
        "No orchestrator: pass one as `orchestrator`, or import '@agent-core/orchestrator-agentic' to make the default tool loop available.",
      );
    }
    return getOrchestrator(name);
  }

  /**
   * Queues a message that interrupts the run: after the current tool call,
   * remaining calls are skipped and the message goes to the model next.
   * With no run active it waits for the next prompt.
   */
  steer(message: string | AgentMessage): void {
    this.#shared.steeringQueue.push(
      typeof message === 'string' ? { role: 'user', content: message } : message,
    );
  }

  /** Queues a message for when the run would otherwise end; it starts another turn. */
  followUp(message: string | AgentMessage): void {
    this.#shared.followUpQueue.push(
      typeof message === 'string' ? { role: 'user', content: message } : message,
    );
  }

  /** Aborts the running prompt, if any. */
  abort(reason?: unknown): void {
    this.#shared.runAbort?.abort(reason);
  }

  /** Clears the history and both queues. Throws `AgentBusyError` while a run is in progress. */
  reset(): void {
    if (this.#shared.runAbort !== undefined) throw new AgentBusyError('reset the agent');
    this.#shared.messages.length = 0;
    this.#shared.steeringQueue.length = 0;
    this.#shared.followUpQueue.length = 0;
    this.#shared.customMessages = 0;
    this.#shared.toolCallIds = undefined;
  }
}

/** A stored orchestrator state as plain JSON; `ConfigError` for one that is not. */
function storedState(value: unknown): unknown {
  try {
    return plainState(value);
  } catch (error) {
    throw new ConfigError(
      `orchestratorState must be the plain JSON an agent's orchestratorState gave: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

/** How many of `messages` are app-defined (not sent to the model as they are). */
function countCustom(messages: readonly AgentMessage[]): number {
  let count = 0;
  for (const message of messages) if (!isModelMessage(message)) count++;
  return count;
}
