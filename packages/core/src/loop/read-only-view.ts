import { ContractError } from '../orchestrator/contract-error.js';

function refuse(): never {
  throw new ContractError(
    'history_read_only',
    "The agent's history is read-only here: ctx.messages, ctx.modelMessages() and a request's messages are views of it. An orchestrator changes it through ctx.append() and the helpers (callModel, executeTool, skipTool, pollSteering, pollFollowUp), which keep every tool call answered; a provider copies what it changes.",
  );
}

const readOnly: ProxyHandler<object> = {
  set: refuse,
  deleteProperty: refuse,
  defineProperty: refuse,
  setPrototypeOf: refuse,
  preventExtensions: refuse,
};

/**
 * A view of `array` that reads as the array (and grows with it) but refuses
 * every change with a `ContractError`, so an orchestrator reading the history
 * cannot reorder or extend it past the helpers. Made once per array.
 */
export function readOnlyView<Item>(array: Item[]): readonly Item[] {
  return new Proxy(array, readOnly) as readonly Item[];
}
