import type { AssistantMessage, Message, ToolCallBlock, Usage } from '../messages/messages.js';
import type { ProviderError } from './provider-error.js';

/** A JSON Schema object, as sent to the model for a tool's parameters. */
export type JsonSchema = Record<string, unknown>;

/** A tool as the model sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the tool's input object. */
  parameters: JsonSchema;
}

/** How the model may choose tools: let it decide, forbid, require any, or require one by name. */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string };

/**
 * Asks the model to answer with JSON that fits a schema (OpenAI's
 * `response_format` / `text.format`). A provider that cannot do this ignores it;
 * core validates the answer either way.
 */
export interface ResponseFormat {
  type: 'json_schema';
  /** 1 to 64 letters, digits, `_` or `-`. */
  name: string;
  schema: JsonSchema;
  description?: string;
  /** Ask the provider to enforce the schema exactly (OpenAI strict mode, which restricts the schema). */
  strict?: boolean;
}

/** One model call. Providers must not mutate anything in it. */
export interface ModelRequest {
  model: string;
  system?: string;
  messages: readonly Message[];
  tools?: readonly ToolSpec[];
  /** Cap on output tokens for this call. */
  maxTokens?: number;
  temperature?: number;
  stopSequences?: readonly string[];
  toolChoice?: ToolChoice;
  /** A JSON answer in this format, for providers that support it. */
  responseFormat?: ResponseFormat;
}

/** What a provider streams for one call. */
export type ModelEvent =
  | { type: 'text_delta'; delta: string }
  | { type: 'thinking_delta'; delta: string }
  | { type: 'toolcall_start'; id: string; name: string }
  /** A piece of the call's arguments as partial JSON. */
  | { type: 'toolcall_delta'; id: string; delta: string }
  | { type: 'toolcall_end'; toolCall: ToolCallBlock }
  /** The call's usage so far (cumulative, not a delta); the done message's usage is final. */
  | { type: 'usage'; usage: Usage }
  | { type: 'done'; message: AssistantMessage }
  | { type: 'error'; error: ProviderError };

/** Options for one `stream()` call. */
export interface StreamOptions {
  /** Aborts the HTTP request; the provider then ends promptly with `done` whose stopReason is `aborted`. */
  signal?: AbortSignal;
}

/** What core knows about a model, for budgets and cost. Prices are US dollars per million tokens. */
export interface ModelInfo {
  contextWindow: number;
  maxOutputTokens: number;
  pricing?: { input: number; output: number; cacheRead?: number; cacheWrite?: number };
}

/**
 * A model backend.
 *
 * Contract:
 * - `stream()` never throws and never rejects: runtime failures arrive as one
 *   final `{ type: 'error' }` event, with a `ProviderError` whose `kind` says
 *   whether a retry can help.
 * - On success the last event is `{ type: 'done', message }`, whose message is
 *   the whole `AssistantMessage` (content in order, `stopReason`, `usage`).
 *   Deltas before it are optional and only for display.
 * - When `signal` aborts, the provider stops reading and ends promptly: with
 *   `done` (stopReason `aborted`) or an `error`; core treats both as aborted.
 * - A listener added to `signal` is removed when the call ends: the run's
 *   model calls may share one signal.
 * - API keys are read when a request is made, never at construction or import.
 */
export interface Provider {
  readonly name: string;
  stream(request: ModelRequest, options?: StreamOptions): AsyncIterable<ModelEvent>;
  /** Counts the input tokens a request would use, when the backend can. */
  countTokens?(request: ModelRequest): Promise<number>;
  /** Context window, output cap and prices of a model, when known. */
  modelInfo?(model: string): ModelInfo | undefined;
}

/** Computes the cost in US dollars of `usage` at `pricing`. */
export function costOf(usage: Usage, pricing: NonNullable<ModelInfo['pricing']>): number {
  return (
    (usage.input * pricing.input +
      usage.output * pricing.output +
      usage.cacheRead * (pricing.cacheRead ?? pricing.input) +
      usage.cacheWrite * (pricing.cacheWrite ?? pricing.input)) /
    1_000_000
  );
}
