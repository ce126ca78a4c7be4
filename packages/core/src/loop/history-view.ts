import type { AgentMessage } from '../messages/messages.js';
import { ContractError } from '../orchestrator/contract-error.js';
import type { RunState } from './run-state.js';

/**
 * The history as a run hands it out (`ctx.messages`, `ctx.modelMessages()`
 * and a request's `messages` when nothing converts the history): a copy of
 * the list, made once per run and kept in step by core (each message appended
 * to the history is pushed onto it too), so nothing done to the list reaches
 * the stored history, whose messages and blocks are frozen besides. A plain
 * array, read at full speed: a `Proxy` refusing writes made every read of an
 * element about 100 ns (every provider reads the whole history on every
 * call), a copy per request grows with the history.
 */
export function historyView(state: RunState): AgentMessage[] {
  let view = state.view;
  if (view === undefined) {
    view = state.shared.messages.slice();
    state.view = view;
  }
  return view;
}

/**
 * Whether the view was changed in place since core last wrote it: extended,
 * shortened, or reordered. Compares its length and its first, middle and last
 * messages with the history's, so it costs the same at any length (an element
 * replaced elsewhere is not seen; the history is unchanged all the same).
 */
export function viewChanged(state: RunState): boolean {
  const view = state.view;
  if (view === undefined) return false;
  const history = state.shared.messages;
  const length = history.length;
  if (view.length !== length) return true;
  if (length === 0) return false;
  const middle = length >> 1;
  return (
    view[0] !== history[0] || view[middle] !== history[middle] || view[length - 1] !== history[length - 1]
  );
}

/** Puts the history back into the view, in place: requests already made hold the same array. */
export function restoreView(state: RunState): void {
  const view = state.view;
  if (view === undefined) return;
  const history = state.shared.messages;
  view.length = history.length;
  for (let index = 0; index < history.length; index++) view[index] = history[index] as AgentMessage;
}

/** The error for an orchestrator that changed `ctx.messages` or `ctx.modelMessages()` in place (restored first) before `when`. */
export function orchestratorEditError(when: string): ContractError {
  return new ContractError(
    'history_read_only',
    `ctx.messages (or ctx.modelMessages()) was changed in place before ${when}: extended, shortened or reordered. Those are copies of the history, which is unchanged (the copy was put back as it was). Change the history through ctx.append() and the helpers (callModel, executeTool, skipTool, pollSteering, pollFollowUp), which keep every tool call answered; to send the model something else, pass callModel({ messages }) a list of your own.`,
  );
}

/** The error for a provider that changed its request's message list in place (restored first). */
export function providerEditError(provider: string): ContractError {
  return new ContractError(
    'history_read_only',
    `Provider '${provider}' changed its request's message list in place (extended, shortened or reordered it). The agent's history is unchanged, but the list is the run's copy of it, which later requests reuse: a provider copies what it changes (request.messages.slice(), or a list of its own for the wire format).`,
  );
}
