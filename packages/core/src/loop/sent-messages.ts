import { isModelMessage, type AgentMessage, type Message } from '../messages/messages.js';
import { windowMessages } from './fit-context.js';
import type { RunState } from './run-state.js';

/**
 * The history as the model is sent it: the context window's view, the
 * agent's `convertToLlm` applied, or app-defined messages left out (filtered
 * incrementally and cached until the history changes); the live history
 * itself when there is nothing to convert. Core's own array: a request sends a copy.
 */
export function sentMessages(state: RunState): readonly Message[] {
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
