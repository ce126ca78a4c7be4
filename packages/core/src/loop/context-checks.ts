import type { AgentError } from '../errors/agent-error.js';
import { RunStoppedError } from '../errors/run-error.js';
import { canonicalJson } from '../governance/canonical-json.js';
import type { Message, ToolCallBlock } from '../messages/messages.js';
import { ContractError } from '../orchestrator/contract-error.js';
import type { TerminateReason } from '../result/agent-result.js';
import type { RunState } from './run-state.js';

/**
 * A promise that rejects with `error` after a macrotask, not a microtask: an
 * orchestrator that catches the refusal and calls again in a loop still lets
 * timers (the run's timeout, its stop grace) fire.
 */
export function refuseLater<Value>(error: AgentError): Promise<Value> {
  return new Promise((_resolve, reject) => {
    setTimeout(reject, 0, error);
  });
}

/** A promise that resolves with `value` after a macrotask, for the same reason as `refuseLater`. */
export function answerLater<Value>(value: Value): Promise<Value> {
  return new Promise((resolve) => {
    setTimeout(resolve, 0, value);
  });
}

/** Why the run may not make another model call or run a tool: its abort or timeout, a governance halt, or a limit it was told of. */
export function stopReason(state: RunState): TerminateReason | undefined {
  return state.stopCause ?? state.halt?.reason ?? state.stopped;
}

/** The error a helper refuses with once the run has ended, its result settled without the orchestrator. */
export function runEndedError(helper: string): ContractError {
  return new ContractError(
    'run_ended',
    `ctx.${helper}() was called after the run ended: the run stopped and its orchestrator did not return from run() within limits.stopGraceMs, so core ended it. Return from run() as soon as a helper reports the run stopped.`,
  );
}

/** The error `callModel` and `executeTool` refuse with once the run has stopped. */
export function stoppedError(state: RunState, helper: string): AgentError {
  if (state.ended) return runEndedError(helper);
  const reason = stopReason(state) ?? 'aborted';
  const code = reason === 'timeout' || reason === 'max_turns' || reason === 'max_tokens' ? reason : 'aborted';
  return new RunStoppedError(
    code,
    `ctx.${helper}() was refused: the run has stopped (${reason}). Return from run() once ctx.nextTurn() gives a reason, ctx.aborted is true or a model call ends with ok: false.`,
  );
}

/** The refusal of a model call while calls of the history wait for results. */
export function unansweredError(calls: readonly ToolCallBlock[]): ContractError {
  const named = calls.map((call) => `'${call.id}' (${call.name})`).join(', ');
  return new ContractError(
    'unanswered_tool_calls',
    `ctx.callModel() was called while tool call${calls.length === 1 ? '' : 's'} ${named} of the history had no result; every model API refuses such a history. Run each call with ctx.executeTool() or answer it with ctx.skipTool() before the next model call.`,
  );
}

/** The tool calls at the end of `messages` (a list an orchestrator built) that no result follows. */
export function danglingIn(messages: readonly Message[]): ToolCallBlock[] {
  let answered: Set<string> | undefined;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as Message;
    if (message.role === 'toolResult') (answered ??= new Set()).add(message.toolCallId);
    else if (message.role === 'assistant')
      return message.content.filter(
        (block): block is ToolCallBlock => block.type === 'toolCall' && answered?.has(block.id) !== true,
      );
    else return [];
  }
  return [];
}

/**
 * Marks a call as running and returns the history's own call of that id, or
 * the rule it breaks: not an unanswered call, already running, or changed.
 */
export function claimCall(
  state: RunState,
  call: ToolCallBlock,
  helper: string,
): ToolCallBlock | ContractError {
  const id = (call as Partial<ToolCallBlock> | undefined)?.id;
  const claimed = typeof id === 'string' ? state.pending.claim(id) : undefined;
  if (claimed === undefined) {
    const running = typeof id === 'string' && state.pending.running(id);
    return new ContractError(
      'tool_call_not_pending',
      running
        ? `ctx.${helper}() was given tool call '${id}' (${call.name}) while it is already running; each call runs once.`
        : `ctx.${helper}() was given tool call '${String(id)}' (${call?.name}), which is not an unanswered call of the history: it already has its result, or it was never appended. Append the assistant message with the call first (callModel does), and run each call once.`,
    );
  }
  if (
    claimed !== call &&
    (claimed.name !== call.name || canonicalJson(claimed.input) !== canonicalJson(call.input))
  ) {
    state.pending.release(id as string);
    return new ContractError(
      'tool_call_changed',
      `ctx.${helper}() was given tool call '${claimed.id}' with another name or input than the call of that id in the history (${claimed.name}); the tool would run with input the history does not show. Pass the call as the model made it.`,
    );
  }
  return claimed;
}

/** Claims every call of a batch, or none: the rule the batch breaks when one is given twice or cannot be claimed. */
export function claimBatch(
  state: RunState,
  calls: readonly ToolCallBlock[],
): ToolCallBlock[] | ContractError {
  const claimed: ToolCallBlock[] = [];
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index] as ToolCallBlock;
    for (let earlier = 0; earlier < index; earlier++) {
      if ((calls[earlier] as ToolCallBlock).id !== call.id) continue;
      for (const taken of claimed) state.pending.release(taken.id);
      return new ContractError(
        'duplicate_tool_call_in_batch',
        `ctx.executeTools() was given tool call '${call.id}' (${call.name}) more than once; it would run (and ask for approval) once per copy for one result. Pass each call once.`,
      );
    }
    const one = claimCall(state, call, 'executeTools');
    if (one instanceof ContractError) {
      for (const taken of claimed) state.pending.release(taken.id);
      return one;
    }
    claimed.push(one);
  }
  return claimed;
}

/** Largest orchestrator state kept, as JSON characters. */
const maxStateChars = 64 * 1024;

/** The plain-JSON copy of an orchestrator's state, or throws `ContractError` (`orchestrator_state`). */
export function plainState(value: unknown): unknown {
  if (value === undefined) return undefined;
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new ContractError(
      'orchestrator_state',
      `ctx.saveState() needs plain JSON; this value cannot be written as JSON (${error instanceof Error ? error.message : String(error)}).`,
      { cause: error },
    );
  }
  if (json === undefined)
    throw new ContractError(
      'orchestrator_state',
      `ctx.saveState() needs plain JSON (objects, arrays, strings, numbers, booleans, null); got ${typeof value}.`,
    );
  if (json.length > maxStateChars)
    throw new ContractError(
      'orchestrator_state',
      `ctx.saveState() keeps a small state (at most ${maxStateChars} characters of JSON); this one has ${json.length}. Keep what the run needs to go on (a phase, indexes, a plan); the history already holds the messages.`,
    );
  return JSON.parse(json);
}

/** Events only core emits: an orchestrator's own would unbalance turns, spans and the run's lifecycle. */
const coreEvents: ReadonlySet<string> = new Set([
  'agent_start',
  'agent_end',
  'turn_start',
  'turn_end',
  'message_start',
  'message_end',
  'tool_call_start',
  'tool_call_end',
  'tool_skipped',
]);

/** Throws `ContractError` (`core_event`) for an event type only core emits. */
export function checkEmitted(type: string): void {
  if (!coreEvents.has(type)) return;
  throw new ContractError(
    'core_event',
    `ctx.emit() was given a '${type}' event, which only core emits (it keeps turns, spans and the run's start and end balanced). Use nextTurn()/endTurn(), callModel() and executeTool() for those, and a 'custom' event for your own progress.`,
  );
}
