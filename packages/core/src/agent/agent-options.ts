import type { AgentMessage } from '../messages/messages.js';
import type { Orchestrator } from '../orchestrator/orchestrator.js';
import type { AnyTool } from '../tool/tool.js';
import type { RunHooks, RunOptions } from '../loop/run-options.js';
import type { Approver } from '../governance/approval.js';
import type { Guard } from '../governance/guard.js';
import type { PendingApproval } from '../governance/pending-approval.js';
import type { PolicyOption } from '../governance/policy.js';
import type { BeforeRunHook } from './prepare-run.js';
import type { RunJournal } from '../loop/run-journal.js';
import type { ContextWindow, ContextWindowOptions } from '../context/context-window.js';

/** Hooks into the run. Policies, guards and logging attach here. */
export interface AgentHooks extends RunHooks {
  /**
   * Run in order before each run's first model call; each may change the
   * model, tools, system prompt and policy for that run. A throw ends the run
   * with a `HookError` before any model call.
   */
  beforeRun?: BeforeRunHook | readonly BeforeRunHook[];
}

/** Options of `new Agent(...)`: those the loop reads (`RunOptions`) and those a run is set up from. */
export interface AgentOptions extends RunOptions {
  tools?: readonly AnyTool[];
  /** Default: the registered default orchestrator (importing `@agent-core/orchestrator-agentic` sets it). */
  orchestrator?: Orchestrator;
  /** The history to start from, e.g. a stored session's messages. */
  messages?: readonly AgentMessage[];
  hooks?: AgentHooks;
  /**
   * Decides each tool call: `allow`, `ask` (the approver, or a pause with
   * `await_user`) or `deny`. A profile (`policies.standard`), rules or a
   * function. Default: every call allowed.
   */
  policy?: PolicyOption;
  /** Asked about calls the policy or guard wants approved. Without it, such calls pause the run. */
  approve?: Approver;
  /** Watches calls and the run; `true` uses `defaultGuard()`. Default: no guard. */
  guard?: Guard | boolean;
  /** The model must declare `<intent tool="..." risk="...">why</intent>` before each tool call. Default false. */
  intentRequired?: boolean;
  /** Approvals a stored session was waiting for (`agent.pendingApprovals` of the process that paused). */
  pendingApprovals?: readonly PendingApproval[];
  /** Tools a person allowed always in this session (`agent.alwaysAllowedTools`). */
  alwaysAllowedTools?: readonly string[];
  /**
   * The state the orchestrator saved with a stored pause (`agent.orchestratorState`
   * of the process that paused), handed back to it as `ctx.savedState` on `resume()`.
   */
  orchestratorState?: unknown;
  /**
   * Where each run is written as it happens (messages, tool calls before they
   * run, the run's end), such as a `SessionJournal`; `SessionManager` sets it.
   */
  journal?: RunJournal;
  /**
   * A token budget for what is sent: before each model call the history is
   * compacted when over it, and a provider's context overflow is compacted
   * and retried once. A `ContextWindow` or its options.
   */
  contextWindow?: ContextWindow | ContextWindowOptions;
}
