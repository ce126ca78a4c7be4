import { type AgentError, toAgentError } from '../errors/agent-error.js';
import { AgentBusyError } from '../errors/agent-busy-error.js';
import { ConfigError } from '../errors/config-error.js';
import { RunStoppedError } from '../errors/run-error.js';
import type { AgentEvent, AgentEventOf } from '../events/agent-event.js';
import { noEvents, RunEvents } from '../events/run-events.js';
import { SpanIds } from '../observability/span-ids.js';
import { randomRunId } from './run-id.js';
import { silentLogger } from '../logger/logger.js';
import type { AgentMessage } from '../messages/messages.js';
import { isModelMessage } from '../messages/messages.js';
import { emptyUsage } from '../messages/usage.js';
import type { Orchestrator, RunEnd } from '../orchestrator/orchestrator.js';
import { getDefaultOrchestratorName, getOrchestrator } from '../registry/registries.js';
import { loadSchemaSupport, prepareTool, type PreparedTool } from '../tool/prepare-tool.js';
import type { AnyTool } from '../tool/tool.js';
import type { RunJournal } from '../session/run-journal.js';
import type { AgentOptions } from './agent-options.js';
import type { AgentResult } from './agent-result.js';
import { AgentRun } from './agent-run.js';
import { type PromptInput, toMessages } from './prompt-input.js';
import { linkAbort } from '../loop/abortable.js';
import { RunAbort } from '../loop/run-abort.js';
import { RunContext } from '../loop/run-context.js';
import { endRun } from '../loop/end-run.js';
import { danglingCalls } from '../loop/dangling-calls.js';
import { heldResults } from '../loop/held-results.js';
import { SharedModelWatch } from '../loop/model-call-watch.js';
import type { AgentShared, RunState } from '../loop/run-state.js';
import type { PendingApproval } from '../governance/pending-approval.js';
import { needsRunSetup, prepareRun, type RunSetup } from '../governance/prepare-run.js';
import { toPolicy } from '../governance/policy.js';
import type { Guard } from '../governance/guard.js';
import { type CheckedDecisions, checkDecisions, type ResumeOptions, resumingOrchestrator } from './resume.js';
import { ContextWindow } from '../context/context-window.js';
import {
  randomSpanId,
  randomTraceId,
  resolveParentTrace,
  type TraceContext,
} from '../observability/trace-context.js';
import { eventLogger } from '../observability/event-logger.js';

/** Options of one `prompt()`. */
export interface PromptOptions {
  /** Aborts this run; it ends with `aborted`. */
  signal?: AbortSignal;
  /**
   * A W3C `traceparent` header value: the run joins that trace, its root span
   * a child of that span. Malformed values throw `ConfigError` (check untrusted
   * headers with `parseTraceparent` first).
   */
  traceparent?: string;
  /** The parent trace context as ids; wins over `traceparent`. */
  trace?: TraceContext;
  /**
   * Trace contexts this run relates to without being their child, such as the
   * first run of a resumed session (`SessionState.trace`); tracers record them as span links.
   */
  links?: readonly TraceContext[];
}

interface PreparedTools {
  tools: readonly AnyTool[];
  byName: Map<string, PreparedTool>;
  specs: PreparedTool['spec'][];
}

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
  readonly options: AgentOptions;
  readonly #shared: AgentShared;
  readonly #listeners = new Set<AgentListener>();
  #runAbort: RunAbort | undefined;
  #prepared: PreparedTools | undefined;
  #tools: readonly AnyTool[];

  constructor(options: AgentOptions) {
    if (typeof options?.provider?.stream !== 'function') {
      throw new ConfigError(
        'Agent needs a provider: an object with a stream(request) method, such as mock() or anthropic().',
      );
    }
    if (typeof options.model !== 'string' || options.model === '') {
      throw new ConfigError("Agent needs a model name, such as model: 'claude-sonnet-4-5'.");
    }
    const maxTurns = options.limits?.maxTurns;
    if (maxTurns !== undefined && !(Number.isInteger(maxTurns) && maxTurns > 0)) {
      throw new ConfigError(`limits.maxTurns must be a positive integer, got ${maxTurns}.`);
    }
    checkToolNames(options.tools ?? []);
    checkGovernance(options);
    // Resolved now so a budget nobody can know fails at construction, not mid-run.
    const contextWindow =
      options.contextWindow === undefined ? undefined : ContextWindow.from(options.contextWindow);
    contextWindow?.budgetFor(options.provider, options.model, options.maxOutputTokens);
    this.options = options;
    this.#tools = options.tools ?? [];
    // Bound, so `onToolsChanged: agent.setTools` works as a plain callback.
    this.setTools = this.setTools.bind(this);
    const messages = [...(options.messages ?? [])];
    this.#shared = {
      agent: this,
      options,
      messages,
      steeringQueue: [],
      followUpQueue: [],
      customMessages: countCustom(messages),
      events: noEvents,
      logger: options.logger ?? silentLogger,
      approvals: {
        pending: options.pendingApprovals === undefined ? [] : structuredClone([...options.pendingApprovals]),
        alwaysAllowed: [...(options.alwaysAllowedTools ?? [])],
      },
      contextWindow,
    };
  }

  /**
   * The tool calls the last run paused for, as plain JSON: store them with
   * the messages and pass them back as `pendingApprovals` to a new Agent in
   * any process; decide them with `resume({ decisions })`.
   */
  get pendingApprovals(): PendingApproval[] {
    return structuredClone(this.#shared.approvals.pending);
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
    return this.#runAbort !== undefined;
  }

  /** Messages queued by `steer()` and `followUp()` that no run has taken yet. */
  get queued(): { steering: readonly AgentMessage[]; followUp: readonly AgentMessage[] } {
    return { steering: this.#shared.steeringQueue, followUp: this.#shared.followUpQueue };
  }

  /** The tools the next run offers. */
  get tools(): readonly AnyTool[] {
    return this.#tools;
  }

  /**
   * Replaces the tools, from the next prompt on (a run keeps the tools it
   * started with), e.g. when an MCP server's tool list changes. Throws
   * `ConfigError` for duplicate names.
   */
  setTools(tools: readonly AnyTool[]): void {
    checkToolNames(tools);
    this.#tools = tools;
    this.#prepared = undefined;
  }

  /** Adds a listener for the events of every run; returns the function that removes it. */
  subscribe(listener: AgentListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Starts a run for `input`. Throws `AgentBusyError` if a run is in progress
   * and `ConfigError` if no orchestrator is available.
   */
  prompt(input: PromptInput, options: PromptOptions = {}): AgentRun {
    if (this.#runAbort !== undefined) throw new AgentBusyError('start a new prompt');
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
    if (this.#runAbort !== undefined) throw new AgentBusyError('resume');
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
    this.#runAbort = runAbort;
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
    const events = new RunEvents(runId, spans, this.#listeners, log, logger);
    const channel = events.channel;
    shared.events = events;
    const startedAt = performance.now();
    const result = this.#run(
      input,
      options,
      orchestrator,
      runAbort,
      runId,
      trace,
      events,
      startedAt,
      decisions,
    );
    return new AgentRun(runId, channel, result, runAbort);
  }

  /**
   * The whole run, in one async frame: a run waiting for its model holds one
   * suspended frame here, with the orchestrator's and the model call's.
   */
  async #run(
    input: PromptInput | undefined,
    options: PromptOptions,
    orchestrator: Orchestrator,
    runAbort: RunAbort,
    runId: string,
    trace: RunTrace,
    events: RunEvents,
    startedAt: number,
    decisions: CheckedDecisions | undefined,
  ): Promise<AgentResult> {
    const shared = this.#shared;
    const agentOptions = this.options;
    try {
      let prepared: PreparedTools;
      let setupError: AgentError | undefined;
      let setup: RunSetup | undefined;
      try {
        // Prepared tools are kept between runs: no await for a run that reuses them.
        prepared = this.#prepared ?? (await this.#prepareTools());
        // The session is claimed in the store first: one process runs it at a time, and two deciding one pause give one execution.
        if (agentOptions.journal?.claim !== undefined)
          await agentOptions.journal.claim(shared.messages, {
            decisions: decisions !== undefined && decisions.size > 0,
          });
        if (needsRunSetup(agentOptions, decisions)) {
          setup = await prepareRun({
            options: agentOptions,
            runId,
            messages: shared.messages,
            resuming: input === undefined,
            tools: prepared,
            decisions,
            memory: shared.approvals,
          });
          prepared = setup.tools;
        }
      } catch (error) {
        // A tool whose schema cannot be converted, a beforeRun hook that throws or a lost claim fails the run, never result().
        setupError = toAgentError(error, 'invalid_config');
        prepared = { tools: [], byName: new Map(), specs: [] };
      }
      const pending = danglingCalls(shared.messages);
      const approvals = shared.approvals.pending;
      const state: RunState = {
        shared,
        runId,
        settings: {
          model: setup?.model ?? agentOptions.model,
          toolExecution: agentOptions.toolExecution ?? 'sequential',
          maxParallelTools: agentOptions.maxParallelTools ?? 8,
          maxTurns: agentOptions.limits?.maxTurns ?? 25,
        },
        tools: prepared.tools,
        toolsByName: prepared.byName,
        toolSpecs: prepared.specs,
        abort: runAbort,
        stopCause: undefined,
        turn: 0,
        seq: 0,
        usage: emptyUsage(),
        toolCalls: [],
        pending,
        held: approvals.length === 0 ? undefined : heldResults(approvals, pending),
        truncated: undefined,
        lastAssistant: undefined,
        modelView: undefined,
        modelViewLength: 0,
        modelWatch: new SharedModelWatch(),
        idCounter: 0,
        systemPrompt: setup === undefined ? agentOptions.systemPrompt : setup.systemPrompt,
        governance: setup?.governance,
        halt: undefined,
        journal: agentOptions.journal,
        traceId: trace.traceId,
        spanId: trace.spanId,
        spans: events.spans,
        turnSpan: 0,
        modelCalls: 0,
        retries: 0,
        fallbacks: 0,
        timeToFirstTokenMs: undefined,
      };
      events.model = state.settings.model;
      state.journal?.runStarted(runId);
      const context = new RunContext(state);
      // The run's own callback comes first, so everything woken by the abort sees why it stopped.
      const stopWatching = runAbort.onAbort((reason) => {
        state.stopCause ??=
          reason instanceof RunStoppedError && reason.code === 'timeout' ? 'timeout' : 'aborted';
        state.modelWatch.runAborted(reason);
      });
      const unlink = linkAbort(options.signal, runAbort);
      const timeoutMs = agentOptions.limits?.timeoutMs;
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(
              () =>
                runAbort.abort(
                  new RunStoppedError(
                    'timeout',
                    `The run took longer than limits.timeoutMs (${timeoutMs} ms).`,
                  ),
                ),
              timeoutMs,
            );
      try {
        const start: AgentEventOf<'agent_start'> = {
          type: 'agent_start',
          runId,
          turn: 0,
          seq: state.seq++,
          messages: shared.messages.length,
          traceId: trace.traceId,
          spanId: trace.spanId,
        };
        if (trace.parentSpanId !== undefined) start.parentSpanId = trace.parentSpanId;
        if (options.links !== undefined && options.links.length > 0) start.links = options.links;
        context.deliver(start);
        if (input !== undefined) {
          // Messages queued while no run was active come first, then the prompt.
          context.takeQueued();
          for (const message of toMessages(input)) context.append(message);
        }
        let end: RunEnd;
        if (setupError !== undefined) end = { reason: 'error', error: setupError };
        else {
          try {
            end = await orchestrator.run(context);
          } catch (error) {
            end = { reason: 'error', error: toAgentError(error, 'orchestrator_failed') };
          }
        }
        const result = endRun(context, end, startedAt, trace.parentSpanId);
        // Whatever ended the run answered or re-listed the calls that were waiting; a new prompt answers them as skipped.
        shared.approvals.pending =
          result.pendingApprovals === undefined ? [] : structuredClone(result.pendingApprovals);
        if (state.journal !== undefined) await endJournal(state.journal, result, shared);
        return result;
      } finally {
        if (timer !== undefined) clearTimeout(timer);
        state.modelWatch.close();
        stopWatching();
        unlink();
      }
    } finally {
      events.channel.close();
      // The agent lets go of the finished run's channel: its unread events live only as long as the AgentRun.
      shared.events = noEvents;
      if (this.#runAbort === runAbort) this.#runAbort = undefined;
    }
  }

  async #prepareTools(): Promise<PreparedTools> {
    if (this.#prepared !== undefined) return this.#prepared;
    const tools = this.#tools;
    await loadSchemaSupport(tools);
    // setTools() during the await wins: prepare what is current, never cache a replaced list.
    if (this.#tools !== tools) return this.#prepareTools();
    const byName = new Map<string, PreparedTool>();
    const specs: PreparedTool['spec'][] = [];
    for (const tool of tools) {
      const prepared = prepareTool(tool);
      byName.set(tool.name, prepared);
      specs.push(prepared.spec);
    }
    this.#prepared = { tools, byName, specs };
    return this.#prepared;
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
    this.#runAbort?.abort(reason);
  }

  /** Clears the history and both queues. Throws `AgentBusyError` while a run is in progress. */
  reset(): void {
    if (this.#runAbort !== undefined) throw new AgentBusyError('reset the agent');
    this.#shared.messages.length = 0;
    this.#shared.steeringQueue.length = 0;
    this.#shared.followUpQueue.length = 0;
    this.#shared.customMessages = 0;
    this.#shared.toolCallIds = undefined;
  }
}

/** The trace identity of one run: its trace, its root span and the caller's span, if any. */
interface RunTrace {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
}

/** Makes the end of the run durable; a store failure is reported in the result, never thrown. */
async function endJournal(journal: RunJournal, result: AgentResult, shared: AgentShared): Promise<void> {
  const logger = shared.logger;
  try {
    await journal.runEnded(result, { alwaysAllowedTools: [...shared.approvals.alwaysAllowed] });
  } catch (error) {
    logger.error('the session store could not record the end of the run', { error: String(error) });
    result.error ??= toAgentError(error, 'session_store_failed');
  }
}

/** How many of `messages` are app-defined (not sent to the model as they are). */
function countCustom(messages: readonly AgentMessage[]): number {
  let count = 0;
  for (const message of messages) if (!isModelMessage(message)) count++;
  return count;
}

/** Misconfigured governance fails here, naming the option, rather than at the first call it would judge. */
function checkGovernance(options: AgentOptions): void {
  if (options.policy !== undefined) toPolicy(options.policy);
  const guard = options.guard as unknown;
  if (
    guard !== undefined &&
    typeof guard !== 'boolean' &&
    typeof (guard as Guard | null)?.check !== 'function'
  )
    throw new ConfigError(
      'guard must be true (the default guard), false, or a Guard: an object with a name and a check(observation) method, such as defaultGuard().',
    );
  if (options.approve !== undefined && typeof options.approve !== 'function')
    throw new ConfigError(
      'approve must be a function that answers a PendingApproval with allow, allow_always or deny.',
    );
}

function checkToolNames(tools: readonly AnyTool[]): void {
  // A fresh agent per request is common: one tool needs no set.
  if (tools.length < 2) return;
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name))
      throw new ConfigError(`Two tools are named '${tool.name}'; tool names must be unique.`);
    names.add(tool.name);
  }
}
