import type { AgentMessage, Message, ToolCallBlock } from '../messages/messages.js';
import type { ToolExecution } from '../orchestrator/orchestrator.js';
import type { Provider, ToolChoice } from '../provider/provider.js';
import type { AnyTool } from '../tool/tool.js';
import type { Logger } from '../logger/logger.js';
import type { RetryPolicy } from './retry-policy.js';

/** Limits on one run. */
export interface RunLimits {
  /** Model calls per run. Default 25. */
  maxTurns?: number;
  /** Wall-clock time per run, in milliseconds. */
  timeoutMs?: number;
  /** Token budget per run (input plus output), checked before each model call. */
  maxTokens?: number;
  /**
   * How long core waits, once a run has stopped (abort, timeout, a limit or a
   * pause), for the orchestrator's `run()` to return; then it ends the run
   * itself with `error` (`orchestrator_unresponsive`), so `result()` settles
   * and the agent takes prompts again. Default 1000.
   */
  stopGraceMs?: number;
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

/** The hooks the loop calls; `AgentHooks` adds the agent's own. */
export interface RunHooks {
  /**
   * Called for every tool call after its input was validated and before it
   * runs; `{ block }` turns the call into an error result with that reason.
   * It fails closed: a throw, or no answer within `hookTimeoutMs`, blocks the call.
   */
  beforeToolCall?(call: ToolCallBlock, tool: AnyTool): ToolCallDecision | Promise<ToolCallDecision>;
}

/**
 * The part of `AgentOptions` the loop reads while a run goes on: the model,
 * limits, timeouts, queues' sources and hooks. `AgentOptions` extends it with
 * what the agent sets a run up from (tools, orchestrator, governance, sessions).
 */
export interface RunOptions {
  /** A name for the agent, used in the per-agent usage breakdown when subagents run. Default `agent`. */
  name?: string;
  provider: Provider;
  model: string;
  systemPrompt?: SystemPromptSource;
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
  /** Called after each tool call; messages it returns steer the run like `agent.steer()`. */
  getSteeringMessages?: () => AgentMessage[];
  /** Called when the run would end; messages it returns continue it like `agent.followUp()`. */
  getFollowUpMessages?: () => AgentMessage[];
  /**
   * Maps the history to what the model is sent, before every model call.
   * Default: the history as is, without app-defined message kinds.
   */
  convertToLlm?: (messages: readonly AgentMessage[]) => readonly Message[];
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
  hooks?: RunHooks;
}
