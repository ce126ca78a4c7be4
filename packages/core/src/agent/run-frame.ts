import { AgentError, toAgentError } from '../errors/agent-error.js';
import { stopReason } from '../loop/context-checks.js';
import { toolViews } from '../loop/tool-views.js';
import { RunStoppedError } from '../errors/run-error.js';
import type { AgentEventOf } from '../events/agent-event.js';
import { noEvents, type RunEvents } from '../events/run-events.js';
import { needsRunSetup, prepareRun, type RunSetup } from './prepare-run.js';
import { linkAbort } from '../loop/abortable.js';
import { danglingCalls } from '../loop/dangling-calls.js';
import { endRun } from '../loop/end-run.js';
import { heldResults } from '../loop/held-results.js';
import { SharedModelWatch } from '../loop/model-call-watch.js';
import type { RunAbort } from '../loop/run-abort.js';
import { RunContext } from '../loop/run-context.js';
import type { AgentShared, RunState } from '../loop/run-state.js';
import { emptyUsage } from '../messages/usage.js';
import type { Orchestrator, RunEnd } from '../orchestrator/orchestrator.js';
import type { RunJournal } from '../loop/run-journal.js';
import type { AgentResult } from '../result/agent-result.js';
import type { AgentOptions } from './agent-options.js';
import type { PreparedTools, ToolPreparation } from './prepared-tools.js';
import { type PromptInput, toMessages } from './prompt-input.js';
import type { PromptOptions } from './prompt-options.js';
import type { CheckedDecisions } from './resume.js';

/** The trace identity of one run: its trace, its root span and the caller's span, if any. */
export interface RunTrace {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
}

/** What a run is started with: the agent's side of it, made by `Agent.prompt` and `Agent.resume`. */
export interface RunStart {
  shared: AgentShared;
  tools: ToolPreparation;
  agentOptions: AgentOptions;
  input: PromptInput | undefined;
  options: PromptOptions;
  orchestrator: Orchestrator;
  runAbort: RunAbort;
  runId: string;
  trace: RunTrace;
  events: RunEvents;
  startedAt: number;
  decisions: CheckedDecisions | undefined;
}

/**
 * The whole run. A run that needs no setup (its tools prepared, no session
 * to claim, no hook or governance) starts at once, and while it waits for
 * its model it holds no suspended frame here: the orchestrator's promise is
 * followed with `then`, whose two callbacks are all the run keeps of this
 * function. Never rejects: failures end the run with `error`.
 */
export function runFrame(run: RunStart): Promise<AgentResult> {
  const ready = run.tools.ready;
  if (
    ready === undefined ||
    run.agentOptions.journal?.claim !== undefined ||
    needsRunSetup(run.agentOptions, run.decisions)
  )
    return setUpThenStart(run);
  return startRun(run, ready, undefined, undefined);
}

/** Prepares the tools, claims the session and runs the setup, then starts the run. */
async function setUpThenStart(run: RunStart): Promise<AgentResult> {
  const { shared, agentOptions, decisions } = run;
  let prepared: PreparedTools;
  let setupError: AgentError | undefined;
  let setup: RunSetup | undefined;
  try {
    // Prepared tools are kept between runs: no await for a run that reuses them.
    prepared = run.tools.ready ?? (await run.tools.prepare());
    // The session is claimed in the store first: one process runs it at a time, and two deciding one pause give one execution.
    if (agentOptions.journal?.claim !== undefined)
      await agentOptions.journal.claim(shared.messages, {
        decisions: decisions !== undefined && decisions.size > 0,
      });
    if (needsRunSetup(agentOptions, decisions)) {
      setup = await prepareRun({
        options: agentOptions,
        runId: run.runId,
        messages: shared.messages,
        resuming: run.input === undefined,
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
  return startRun(run, prepared, setup, setupError);
}

/** Starts the orchestrator (or ends the run with `setupError`) and returns the run's result. */
function startRun(
  run: RunStart,
  prepared: PreparedTools,
  setup: RunSetup | undefined,
  setupError: AgentError | undefined,
): Promise<AgentResult> {
  const { shared, agentOptions, runAbort, runId, trace, input, options } = run;
  let state: RunState;
  let context: RunContext;
  try {
    state = runState(run, prepared, setup);
    context = new RunContext(state);
  } catch (error) {
    letGo(run);
    return Promise.reject(error);
  }
  // Once the run stops, its orchestrator has limits.stopGraceMs to return before core ends the run without it.
  const graceMs = agentOptions.limits?.stopGraceMs ?? 1000;
  let grace: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  const startGrace = () => {
    if (grace !== undefined || finished) return;
    grace = setTimeout(() => finish(unresponsive(run.orchestrator, state, graceMs), true), graceMs);
  };
  state.onStop = startGrace;
  // The run's own callback comes first, so everything woken by the abort sees why it stopped.
  const onRunAbort = (reason: unknown) => {
    state.stopCause ??=
      reason instanceof RunStoppedError && reason.code === 'timeout' ? 'timeout' : 'aborted';
    state.modelWatch.runAborted(reason);
    startGrace();
  };
  runAbort.subscribe(onRunAbort);
  const unlink = linkAbort(options.signal, runAbort);
  const timeoutMs = agentOptions.limits?.timeoutMs;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(
          () =>
            runAbort.abort(
              new RunStoppedError('timeout', `The run took longer than limits.timeoutMs (${timeoutMs} ms).`),
            ),
          timeoutMs,
        );
  let running: Promise<RunEnd> | RunEnd;
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
    if (setupError !== undefined) running = { reason: 'error', error: setupError };
    else {
      try {
        running = run.orchestrator.run(context);
      } catch (error) {
        running = { reason: 'error', error: toAgentError(error, 'orchestrator_failed') };
      }
    }
  } catch (error) {
    stopWatching(run, state, timer, onRunAbort, unlink);
    return Promise.reject(error);
  }
  const ended = (end: RunEnd, forced: boolean): AgentResult | Promise<AgentResult> => {
    let journaled = false;
    try {
      const result = endRun(context, end, run.startedAt, trace.parentSpanId, forced);
      // Ended: every helper refuses from now on, and nothing the orchestrator still does reaches the agent.
      state.ended = true;
      state.events = noEvents;
      shared.orchestratorState =
        result.terminateReason === 'await_user' ? state.orchestratorState : undefined;
      // Whatever ended the run answered or re-listed the calls that were waiting; a new prompt answers them as skipped.
      shared.approvals.pending =
        result.pendingApprovals === undefined ? [] : structuredClone(result.pendingApprovals);
      const journal = state.journal;
      if (journal === undefined) return result;
      journaled = true;
      return endJournal(journal, result, shared).then(
        () => {
          stopWatching(run, state, timer, onRunAbort, unlink);
          return result;
        },
        (error: unknown) => {
          stopWatching(run, state, timer, onRunAbort, unlink);
          throw error;
        },
      );
    } finally {
      if (!journaled) stopWatching(run, state, timer, onRunAbort, unlink);
    }
  };
  let settle: (result: AgentResult | Promise<AgentResult>) => void = noop;
  const result = new Promise<AgentResult>((resolve) => {
    settle = resolve;
  });
  // The orchestrator's end, or core's when it did not return in time after the run stopped: whichever comes first.
  const finish = (end: RunEnd, forced: boolean) => {
    if (finished) return;
    finished = true;
    if (grace !== undefined) clearTimeout(grace);
    try {
      settle(ended(end, forced));
    } catch (error) {
      settle(Promise.reject(error));
    }
  };
  // A promise is followed with `then`; anything else an orchestrator returns is awaited as before.
  const pending = running instanceof Promise ? running : Promise.resolve(running);
  pending.then(
    (end: RunEnd) => finish(end, false),
    (error: unknown) => finish(rejectedEnd(state, error), false),
  );
  return result;
}

function noop(): void {}

/**
 * How a run ends whose orchestrator rejected: a helper's refusal after the
 * run stopped ends it for that reason, anything else is an `error`.
 */
function rejectedEnd(state: RunState, error: unknown): RunEnd {
  const stopped = stopReason(state);
  if (stopped !== undefined && AgentError.isInstance(error) && error.name === 'RunStoppedError')
    return { reason: stopped };
  return { reason: 'error', error: toAgentError(error, 'orchestrator_failed') };
}

/** The end core gives a run whose orchestrator did not return within `stopGraceMs` of its stop. */
function unresponsive(orchestrator: Orchestrator, state: RunState, graceMs: number): RunEnd {
  const stopped = stopReason(state) ?? 'aborted';
  return {
    reason: 'error',
    error: new AgentError(
      'orchestrator_unresponsive',
      `The run stopped (${stopped}), but orchestrator '${orchestrator.name}' did not return from run() within limits.stopGraceMs (${graceMs} ms), so the run was ended without it; its later calls to the context are refused. An orchestrator returns once nextTurn() gives a reason, ctx.aborted is true or a helper reports the run stopped.`,
    ),
  };
}

/** The state of a run about to start. */
function runState(run: RunStart, prepared: PreparedTools, setup: RunSetup | undefined): RunState {
  const { shared, agentOptions, runAbort, runId, trace, events } = run;
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
    toolViews: (prepared.views ??= toolViews(prepared.tools)),
    toolsByName: prepared.byName,
    toolSpecs: prepared.specs,
    abort: runAbort,
    stopCause: undefined,
    turn: 0,
    turnOpen: false,
    turnCalled: false,
    turnMessage: undefined,
    stopped: undefined,
    stopTold: false,
    ended: false,
    onStop: undefined,
    resuming: run.input === undefined,
    savedState: run.input === undefined ? shared.orchestratorState : undefined,
    // A resumed run keeps what was saved until its orchestrator saves anew.
    orchestratorState: run.input === undefined ? shared.orchestratorState : undefined,
    events,
    view: undefined,
    seq: 0,
    usage: emptyUsage(),
    toolCalls: [],
    pending,
    held: approvals.length === 0 ? undefined : heldResults(approvals, pending),
    refused: undefined,
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
  return state;
}

/** Stops what watches a run that has ended (its timer, model watch, abort callback and the caller's signal) and lets it go. */
function stopWatching(
  run: RunStart,
  state: RunState,
  timer: ReturnType<typeof setTimeout> | undefined,
  onRunAbort: (reason: unknown) => void,
  unlink: () => void,
): void {
  if (timer !== undefined) clearTimeout(timer);
  state.modelWatch.close();
  run.runAbort.off(onRunAbort);
  unlink();
  letGo(run);
}

/** The agent lets go of a run that has ended. */
function letGo(run: RunStart): void {
  const shared = run.shared;
  run.events.channel.close();
  // The agent lets go of the finished run's channel: its unread events live only as long as the AgentRun.
  shared.events = noEvents;
  // The agent takes prompts again: undefined here, unless a later run already replaced it.
  if (shared.runAbort === run.runAbort) shared.runAbort = undefined;
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
