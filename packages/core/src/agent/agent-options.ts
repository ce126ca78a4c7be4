import type { AgentMessage, Message, ToolCallBlock } from '../messages/messages.js';
import type { ToolExecution, Orchestrator } from '../orchestrator/orchestrator.js';
import type { Provider, ToolChoice } from '../provider/provider.js';
import type { RetryPolicy } from '../loop/retry-policy.js';
import type { AnyTool } from '../tool/tool.js';
import type { Logger } from '../logger/logger.js';
import type { Approver } from '../governance/approval.js';
import type { Guard } from '../governance/guard.js';
import type { PendingApproval } from '../governance/pending-approval.js';
import type { PolicyOption } from '../governance/policy.js';
import type { BeforeRunHook } from '../governance/prepare-run.js';
import type { RunJournal } from '../session/run-journal.js';
import type { ContextWindow, ContextWindowOptions } from '../context/context-window.js';

/** Limits on one run. */
export interface RunLimits {
  /** Model calls per run. Default 25. */
  maxTurns?: number;
  /** Wall-clock time per run, in milliseconds. */
  timeoutMs?: number;
  /** Token budget per run (input plus output), checked before each model call. */
  maxTokens?: number;
}

/** What a system prompt function gets to build the prompt for one model call. */
export interface SystemPromptContext {
  provider: string;
  model: string;
  tools: readonly AnyTool[];
}

/** A fixed system prompt, or a function (such as a SystemPromptBuilder's `build`) called before each model call. */
export type SystemPromptSource = string | ((context: SystemPromptContext) => string);

/** What a `beforeToolCall` hook may answer: nothing to let the call run, or a reason to block it. */
export type ToolCallDecision = undefined | { block: string };

/** Hooks into the run. Policies, guards and logging attach here. */
export interface AgentHooks {
  /**
   * Called for every tool call after its input was validated and before it
   * runs; `{ block }` turns the call into an error result with that reason.
   * It fails closed: a throw, or no answer within `hookTimeoutMs`, blocks the call.
   */
  beforeToolCall?(call: ToolCallBlock, tool: AnyTool): ToolCallDecision | Promise<ToolCallDecision>;
  /**
   * Run in order before each run's first model call; each may change the
   * model, tools, system prompt and policy for that run. A throw ends the run
   * with a `HookError` before any model call.
   */
  beforeRun?: BeforeRunHook | readonly BeforeRunHook[];
}

/** Options of `new Agent(...)`. */
export interface AgentOptions {
  /** A name for the agent, used in the per-agent usage breakdown when subagents run. Default `agent`. */
  name?: string;
  provider: Provider;
  model: string;
  systemPrompt?: SystemPromptSource;
  tools?: readonly AnyTool[];
  /** Default: the registered default orchestrator (importing `@agent-core/orchestrator-agentic` sets it). */
  orchestrator?: Orchestrator;
  limits?: RunLimits;
  /** How orchestrators that support it run several tool calls of one response. Default `sequential`. */
  toolExecution?: ToolExecution;
  /** Tool calls in flight at once in parallel mode. Default 8. */
  maxParallelTools?: number;
  /** Default timeout for each tool call, in milliseconds; a tool's own `timeoutMs` wins. */
  toolTimeoutMs?: number;
  /**
   * The most characters of a tool's result the model is sent (its text blocks
   * together); the rest is cut, with a note saying how much. Default 100 000.
   */
  toolResultMaxChars?: number;
  /** Output token cap for each model call. */
  maxOutputTokens?: number;
  temperature?: number;
  stopSequences?: readonly string[];
  toolChoice?: ToolChoice;
  /** The history to start from, e.g. a stored session's messages. */
  messages?: readonly AgentMessage[];
  /** Called after each tool call; messages it returns steer the run like `agent.steer()`. */
  getSteeringMessages?: () => AgentMessage[];
  /** Called when the run would end; messages it returns continue it like `agent.followUp()`. */
  getFollowUpMessages?: () => AgentMessage[];
  /**
   * Maps the history to what the model is sent, before every model call.
   * Default: the history as is, without app-defined message kinds.
   */
  convertToLlm?: (messages: readonly AgentMessage[]) => readonly Message[];
  hooks?: AgentHooks;
  retry?: RetryPolicy;
  /** Tried once the primary provider's retries for a retryable error run out. */
  fallbackProvider?: Provider;
  /** Model for the fallback provider. Default: `model`. */
  fallbackModel?: string;
  /** A stream with no event for this long fails as a retryable network error. Default 120 s. */
  streamIdleTimeoutMs?: number;
  logger?: Logger;
  /** How long an asynchronous `beforeToolCall` hook may take before the call is blocked. Default 30 s. */
  hookTimeoutMs?: number;
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
