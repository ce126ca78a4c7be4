import { AgentError } from '../errors/agent-error.js';

/**
 * The rules the orchestrator context and the loop hold every orchestrator and
 * provider to; each names what was broken (see `ContractError`).
 */
export type ContractRule =
  /** `callModel` while a tool call of the history has no result: every real API refuses that history. */
  | 'unanswered_tool_calls'
  /** `executeTools` given one call id twice: the tool would run twice for one result. */
  | 'duplicate_tool_call_in_batch'
  /** `executeTool`, `executeTools` or `skipTool` for a call that is not an unanswered call of the history, or is already running. */
  | 'tool_call_not_pending'
  /** `executeTool` given a call whose name or input differ from the call of that id in the history. */
  | 'tool_call_changed'
  /** A tool's `execute` called on a tool from `ctx.tools`: every call must pass the gate (`ctx.executeTool`). */
  | 'tool_outside_gate'
  /** A change made in place to `ctx.messages`, `ctx.modelMessages()` or a request's message list, the run's copy of the history. */
  | 'history_read_only'
  /** `ctx.emit` of an event only core emits (turns, messages, tool calls, the run's start and end). */
  | 'core_event'
  /** `ctx.saveState` given a value that is not plain JSON, or larger than 64 KiB as JSON. */
  | 'orchestrator_state'
  /** A context helper used after the run ended: the run's result was already settled without the orchestrator. */
  | 'run_ended'
  /** A provider's reply with a tool-call id it used twice, or that an earlier call of the history has. */
  | 'duplicate_tool_call_id';

/**
 * A broken contract: an orchestrator used its context in a way that would
 * corrupt the history, run a tool twice or outside the gate, or a provider
 * replied in a way no history can hold. `code` and `rule` name the rule; the
 * message says what happened and what to do instead.
 */
export class ContractError extends AgentError {
  readonly rule: ContractRule;

  constructor(rule: ContractRule, message: string, options: { cause?: unknown } = {}) {
    super(rule, message, options);
    this.name = 'ContractError';
    this.rule = rule;
  }

  /** True for a ContractError from any copy of the package. */
  static override isInstance(value: unknown): value is ContractError {
    return AgentError.isInstance(value) && typeof (value as { rule?: unknown }).rule === 'string';
  }
}
