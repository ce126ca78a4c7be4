import type { $ZodType } from 'zod/v4/core';
import type { AgentMessage, ImageBlock, TextBlock, Usage } from '../messages/messages.js';
import type { JsonSchema } from '../provider/provider.js';
import type { ApprovalDecision } from './approval-decision.js';

/** How much a tool can change or reach; policies map it to allow, ask or deny. */
export type ToolRisk = 'read' | 'write' | 'execute' | 'network';

/** What a tool returns: text, or text and image blocks. */
export type ToolOutput = string | (TextBlock | ImageBlock)[];

/**
 * What a tool sees of the agent running it: the `Agent` itself, typed by the
 * part a tool may use (its history, its tools, its queues), so the tool
 * contract stands without the agent's.
 */
export interface ToolAgent {
  readonly messages: readonly AgentMessage[];
  readonly tools: readonly AnyTool[];
  steer(message: string | AgentMessage): void;
  followUp(message: string | AgentMessage): void;
}

/**
 * An event a tool adds to the stream of the run that called it: an
 * `AgentEventInput` (an event of the run's union, or an app-defined one,
 * without `runId`, `turn` and `seq`).
 */
export interface ToolEventInput {
  readonly type: string;
  readonly [field: string]: unknown;
}

/**
 * What a tool's `execute` receives besides its input. In a run core fills
 * every field but `session`; to call a tool directly (in a test, say) build
 * one with `toolContext()`.
 */
export interface ToolContext {
  /** Aborted when the run is aborted or times out, or the tool's own timeout passes. */
  signal: AbortSignal;
  toolCallId: string;
  /** The agent running the tool (the `Agent` itself); absent when the tool is called outside a run. */
  agent?: ToolAgent;
  /**
   * The session the run belongs to. Reserved: sessions arrive with the
   * session store; until then it is always undefined.
   */
  session?: unknown;
  /** The run that made the call, for tools that run agents of their own (subagents). */
  run?: ToolRunAccess;
  /**
   * Set when `agent.resume()` runs again a call that paused with a
   * `ToolPauseRequest`: the state it stored and the decisions for the
   * approvals asked inside it. The tool continues from there, never over.
   */
  resume?: ToolResume;
}

/** What a tool that paused (`ToolPauseRequest`) gets back on resume. */
export interface ToolResume {
  /** The `state` of the `ToolPauseRequest`, as stored (plain JSON). */
  state: unknown;
  /** Decisions for the approvals it asked, checked against their call ids and input hashes; `agentPath` starts below the calling agent. */
  decisions: ApprovalDecision[];
}

/**
 * What a tool may do to the run that called it: report events and usage of
 * work done on its behalf, as a subagent tool does.
 *
 * Contract:
 * - `emit` adds the event to the calling run's stream (core adds `runId`,
 *   `turn` and `seq`); once that run has ended, events are dropped.
 * - `addUsage` counts into the run's `usage` (so its `maxTokens` budget sees
 *   it) and into `usageByAgent` under `agent`.
 */
export interface ToolRunAccess {
  readonly runId: string;
  emit(event: ToolEventInput): void;
  addUsage(agent: string, usage: Usage): void;
}

/** The outcome of validating a tool's input. */
export type ToolInputCheck<Input> = { ok: true; value: Input } | { ok: false; message: string };

/**
 * A tool the model can call.
 *
 * Contract:
 * - `execute` gets input that already passed `parameters`; it may throw, and a
 *   throw becomes an error result the model sees (the run goes on).
 * - `execute` should stop when `ctx.signal` aborts; core stops waiting for it
 *   either way, so an ignored signal never holds a run.
 */
export interface Tool<Input = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  /** A zod 4 schema or a raw JSON Schema object. */
  readonly parameters: $ZodType | JsonSchema;
  /** Per-call timeout in milliseconds; overrides the agent's `toolTimeoutMs`. */
  readonly timeoutMs?: number;
  readonly risk?: ToolRisk;
  /**
   * True when running the call twice has the same effect as once. A call a
   * crash interrupted is then run again on resume instead of being answered
   * with an "outcome unknown" error.
   */
  readonly idempotent?: boolean;
  execute(input: Input, context: ToolContext): ToolOutput | Promise<ToolOutput>;
}

/** Any tool, whatever its input type. */
// biome-ignore lint/suspicious/noExplicitAny: a tool list holds tools of every input type
export type AnyTool = Tool<any>;
