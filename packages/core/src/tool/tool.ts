import type { $ZodType } from 'zod/v4/core';
import type { ImageBlock, TextBlock } from '../messages/messages.js';
import type { JsonSchema } from '../provider/provider.js';

/** How much a tool can change or reach; policies map it to allow, ask or deny. */
export type ToolRisk = 'read' | 'write' | 'execute' | 'network';

/** What a tool returns: text, or text and image blocks. */
export type ToolOutput = string | (TextBlock | ImageBlock)[];

/** What a tool's `execute` receives besides its input. */
export interface ToolContext {
  /** Aborted when the run is aborted or times out, or the tool's own timeout passes. */
  signal: AbortSignal;
  toolCallId: string;
  /** The agent running the tool. */
  agent: unknown;
  /** The session the run belongs to, when the agent has one. */
  session?: unknown;
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
