import { AgentError } from '../errors/agent-error.js';
import type { ToolCallBlock, ToolResultMessage } from '../messages/messages.js';
import type { AnyTool, ToolOutput } from '../tool/tool.js';
import type { RunContext } from './run-context.js';
import { roundMs } from './round-ms.js';
import { capToolOutput } from './cap-tool-output.js';
import { admitCall, type GateRefusal, stopForHalt } from './admit-call.js';
import type { RunJournal } from './run-journal.js';
import { EventKind, type ToolCallEnd } from '../events/run-events.js';
import { askHook } from './before-tool-call.js';
import { errorText, invokeTool, type Outcome } from './invoke-tool.js';
import { holdResult, takeHeld } from './held-results.js';

/** A call that passed the checks before governance: its tool and validated input. */
type Checked = { ok: true; tool: AnyTool; input: unknown };

/**
 * Runs one tool call: the one place every call passes. Emits
 * `tool_call_start`, refuses unknown tools, calls the loop refused (cut off, malformed input) and invalid input,
 * asks the `beforeToolCall` hook, then governance (intent, guard, policy,
 * approval: see `admitCall`), runs the tool under its timeout and the run's
 * signal, emits `tool_call_end` and appends the result. Tool failures become
 * error results; this never throws for them. A call that pauses for approval
 * gets no result: the run's signal aborts, and the returned message is not in
 * the history.
 */
export async function executeTool(context: RunContext, call: ToolCallBlock): Promise<ToolResultMessage> {
  try {
    // The context claimed the call: it is an unanswered call of the history, and runs once.
    const state = context.state;
    // A run paused for approval leaves every later call unanswered, even for an orchestrator that goes on.
    if (state.halt?.reason === 'await_user')
      return waiting(call, `Tool call '${call.name}' waits for approval.`);
    // A call that already ran while an earlier one paused gets the result it had, and is not run again.
    if (state.held !== undefined) {
      const held = takeHeld(state, call.id);
      if (held !== undefined) return appendResult(context, held);
    }
    const span = state.spans.open();
    const parent = state.turnSpan;
    state.events.emit(EventKind.toolCallStart, state.turn, state.seq++, span, parent, 0, call);
    const started = performance.now();
    // Awaited even for a synchronous tool: the yield lets an iterating consumer steer before the next call.
    const outcome = await runCall(context, call);
    if (!outcome.ok && outcome.paused === true) {
      stopForHalt(context);
      return waiting(call, outcome.message);
    }
    const finished = settle(context, call, outcome, started);
    endEvent(context, finished, span, parent);
    const result = appendResult(context, finished);
    const journal = state.journal;
    if (journal !== undefined) await finishLogged(journal, call, finished);
    if (context.state.halt !== undefined) stopForHalt(context);
    return result;
  } finally {
    // A call still unanswered (paused) may run again later; an answered one left the pending list.
    context.state.pending.release(call.id);
  }
}

/** What `executeTool` returns for a call paused for approval; it is not appended to the history. */
function waiting(call: ToolCallBlock, message: string): ToolResultMessage {
  return { role: 'toolResult', toolCallId: call.id, toolName: call.name, content: message, isError: true };
}

/** Checks calls in order through the whole gate; stops at the first that pauses (it and later calls are left out). */
async function admitInOrder(
  context: RunContext,
  calls: readonly ToolCallBlock[],
  spans: number[],
): Promise<(Checked | GateRefusal)[]> {
  const state = context.state;
  const admissions: (Checked | GateRefusal)[] = [];
  for (const call of calls) {
    if (state.held?.has(call.id) === true) {
      // It passed the gate when it ran; its result is appended in its place.
      spans.push(0, 0);
      admissions.push(alreadyRan);
      continue;
    }
    startCall(context, call, spans, spans.length / 2);
    const checked = precheck(context, call);
    if (!checked.ok) {
      admissions.push(checked);
      continue;
    }
    const refusal = await admit(context, call, checked.tool);
    if (refusal?.paused === true) break;
    admissions.push(refusal ?? checked);
    if (state.halt !== undefined) break;
  }
  return admissions;
}

/**
 * Runs calls concurrently, at most `settings.maxParallelTools` at once, and
 * appends each result as soon as every earlier call has its own: the history
 * is always in call order, whatever order the tools finish in.
 */
export async function executeTools(
  context: RunContext,
  allCalls: readonly ToolCallBlock[],
): Promise<ToolResultMessage[]> {
  try {
    const limit = Math.max(1, context.state.settings.maxParallelTools);
    // With governance, calls are checked one by one in call order first (approvers are asked one at a time),
    // then the admitted ones run together; a pause leaves its call and every later one unanswered.
    // Each call keeps its own span and the turn it started in as parent, whatever order they end in.
    // Span and parent of call i at 2i and 2i + 1.
    const spans: number[] = [];
    const admissions =
      context.state.governance === undefined ? undefined : await admitInOrder(context, allCalls, spans);
    const calls = admissions === undefined ? allCalls : allCalls.slice(0, admissions.length);
    const finished: (ToolCallEnd | typeof paused | undefined)[] = new Array(calls.length);
    const results: ToolResultMessage[] = [];
    let nextToStart = 0;
    let nextToAppend = 0;
    const state = context.state;

    const flush = () => {
      while (nextToAppend < calls.length && finished[nextToAppend] !== undefined) {
        // A call paused inside (a subagent waiting for approval) stays unanswered, and so do the calls after it.
        if (finished[nextToAppend] === paused) return;
        const index = nextToAppend++;
        results.push(appendResult(context, finished[index] as ToolCallEnd));
      }
    };

    const worker = async () => {
      while (nextToStart < calls.length) {
        const index = nextToStart++;
        const call = calls[index] as ToolCallBlock;
        if (state.held !== undefined) {
          const held = takeHeld(state, call.id);
          if (held !== undefined) {
            finished[index] = held;
            flush();
            continue;
          }
        }
        const started = performance.now();
        let outcome: Outcome;
        if (admissions === undefined) {
          startCall(context, call, spans, index);
          outcome = await runCall(context, call);
        } else {
          const admission = admissions[index] as Checked | GateRefusal;
          outcome = admission.ok
            ? await runAdmitted(context, call, admission.tool, admission.input)
            : admission;
        }
        if (!outcome.ok && outcome.paused === true) {
          finished[index] = paused;
          continue;
        }
        const done = settle(context, call, outcome, started);
        finished[index] = done;
        endEvent(context, done, spans[index * 2] as number, spans[index * 2 + 1] as number);
        flush();
        const journal = state.journal;
        if (journal !== undefined) await finishLogged(journal, call, done);
      }
    };
    const workers: Promise<void>[] = [];
    for (let index = 0; index < Math.min(limit, calls.length); index++) workers.push(worker());
    await Promise.all(workers);
    // Calls that ended behind a paused one keep their results for whichever run answers them next.
    for (let index = nextToAppend; index < calls.length; index++) {
      const done = finished[index];
      if (done !== undefined && done !== paused) holdResult(state, done);
    }
    if (state.halt !== undefined) stopForHalt(context);
    return results;
  } finally {
    for (const call of allCalls) context.state.pending.release(call.id);
  }
}

/** The admission of a call whose result a pause held: it is not checked or run again. */
const alreadyRan: GateRefusal = { ok: false, message: 'already ran' };

/** Marks a call of a batch that paused inside: it gets no result, and the results of the calls after it are held. */
const paused: unique symbol = Symbol('paused');

/** A call's outcome as it is reported and recorded: computed once, used by the event and the history. */
function settle(context: RunContext, call: ToolCallBlock, outcome: Outcome, started: number): ToolCallEnd {
  return {
    call,
    content: outcome.ok
      ? capToolOutput(normalizeOutput(outcome.output), context.state.shared.options.toolResultMaxChars)
      : outcome.message,
    isError: !outcome.ok,
    durationMs: roundMs(performance.now() - started),
  };
}

/**
 * Opens call `index`'s span (its parent is the turn's span when the call starts),
 * keeps both at `2 × index` in `spans` and emits its `tool_call_start`.
 */
function startCall(context: RunContext, call: ToolCallBlock, spans: number[], index: number): void {
  const state = context.state;
  const span = state.spans.open();
  const parent = state.turnSpan;
  spans[index * 2] = span;
  spans[index * 2 + 1] = parent;
  state.events.emit(EventKind.toolCallStart, state.turn, state.seq++, span, parent, 0, call);
}

function endEvent(context: RunContext, finished: ToolCallEnd, span: number, parent: number): void {
  const state = context.state;
  state.events.emit(EventKind.toolCallEnd, state.turn, state.seq++, span, parent, 0, finished);
}

/** Records the call and appends its result, unless the run already answered it (a tool that ignored its signal). */
export function appendResult(context: RunContext, finished: ToolCallEnd): ToolResultMessage {
  const state = context.state;
  const call = finished.call;
  // A run ended without its orchestrator answered the call as not run: nothing joins its history now.
  if (!state.pending.has(call.id) || state.ended) return answered(context, call);
  const { content, isError } = finished;
  const result: ToolResultMessage = {
    role: 'toolResult',
    toolCallId: call.id,
    toolName: call.name,
    content,
    isError,
  };
  state.toolCalls.push(finished);
  context.append(result);
  return result;
}

function answered(context: RunContext, call: ToolCallBlock): ToolResultMessage {
  const messages = context.state.shared.messages;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as ToolResultMessage;
    if (message.role === 'toolResult' && message.toolCallId === call.id) return message;
  }
  throw new AgentError('tool_result_missing', `Tool call '${call.id}' has no result in the history.`);
}

/** Checks and runs one call: a promise only when a hook, governance or the tool itself is asynchronous. */
function runCall(context: RunContext, call: ToolCallBlock): Outcome | Promise<Outcome> {
  const checked = precheck(context, call);
  if (!checked.ok) return checked;
  const state = context.state;
  if (state.governance === undefined && state.shared.options.hooks?.beforeToolCall === undefined)
    return runAdmitted(context, call, checked.tool, checked.input);
  return admit(context, call, checked.tool).then(
    (refusal) => refusal ?? runAdmitted(context, call, checked.tool, checked.input),
  );
}

/** The checks every call passes before hooks and governance: run state, truncation, tool name, input. */
function precheck(context: RunContext, call: ToolCallBlock): Checked | GateRefusal {
  const state = context.state;
  if (state.stopCause !== undefined)
    return {
      ok: false,
      message: `Tool '${call.name}' was not run: the run was ${state.stopCause === 'timeout' ? 'timed out' : 'aborted'}.`,
    };
  const refused = state.refused?.get(call.id);
  if (refused !== undefined) return { ok: false, message: refused };
  const prepared = state.toolsByName.get(call.name);
  if (prepared === undefined) {
    const known = [...state.toolsByName.keys()];
    return {
      ok: false,
      message: `Unknown tool '${call.name}'. Available tools: ${known.length > 0 ? known.join(', ') : 'none'}.`,
    };
  }
  const check = prepared.validate(call.input);
  if (!check.ok) {
    return {
      ok: false,
      message: `Invalid input for tool '${call.name}': ${check.message}. Fix the arguments and call it again.`,
    };
  }
  return { ok: true, tool: prepared.tool, input: check.value };
}

/**
 * The `beforeToolCall` hook, then governance. The hook fails closed: a throw,
 * a rejection or no answer within `hookTimeoutMs` blocks the call.
 */
async function admit(
  context: RunContext,
  call: ToolCallBlock,
  tool: AnyTool,
): Promise<GateRefusal | undefined> {
  const state = context.state;
  const hook = state.shared.options.hooks?.beforeToolCall;
  if (hook !== undefined) {
    const blocked = await askHook(context, call, tool, hook);
    if (blocked !== undefined) return blocked;
  }
  const governance = state.governance;
  if (governance === undefined) return undefined;
  return admitCall(context, governance, call, tool);
}

/**
 * Runs a call that passed every check. With a journal (a session store), the
 * call is durable in the session's log before its tool runs, or it does not run:
 * log before execute. Calls refused or paused by the gate are never logged as started.
 */
function runAdmitted(
  context: RunContext,
  call: ToolCallBlock,
  tool: AnyTool,
  input: unknown,
): Outcome | Promise<Outcome> {
  const journal = context.state.journal;
  if (journal === undefined) return invokeTool(context, call, tool, input);
  return runLogged(context, call, tool, input, journal);
}

async function runLogged(
  context: RunContext,
  call: ToolCallBlock,
  tool: AnyTool,
  input: unknown,
  journal: RunJournal,
): Promise<Outcome> {
  try {
    await journal.toolStarted(call);
  } catch (error) {
    return {
      ok: false,
      message: `Tool '${call.name}' was not run: the session store could not record the call first (${errorText(error)}).`,
    };
  }
  return invokeTool(context, call, tool, input);
}

async function finishLogged(journal: RunJournal, call: ToolCallBlock, finished: ToolCallEnd): Promise<void> {
  try {
    await journal.toolFinished(call, { isError: finished.isError, durationMs: finished.durationMs });
  } catch {
    // The journal keeps its failure: the next model call reports it and ends the run.
  }
}

function normalizeOutput(output: unknown): ToolOutput {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output as ToolOutput;
  if (output === undefined || output === null) return '';
  return JSON.stringify(output) ?? String(output);
}
