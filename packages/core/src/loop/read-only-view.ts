import { ContractError } from '../orchestrator/contract-error.js';

function refuse(): never {
  throw new ContractError(
    'history_read_only',
    'ctx.messages and ctx.modelMessages() are read-only views of the history: change it through ctx.append() and the helpers (callModel, executeTool, skipTool, pollSteering, pollFollowUp), which keep every tool call answered.',
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
