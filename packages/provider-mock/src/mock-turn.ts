import type { ModelRequest, ProviderErrorKind, StopReason, Usage } from '@agent-core/core';

/** A failure the mock reports instead of (or in the middle of) a reply. */
export interface MockError {
  kind: ProviderErrorKind;
  message?: string;
  status?: number;
  retryAfterMs?: number;
  /** Text chunks streamed before the error; 0 (the default) fails before any output. */
  afterChunks?: number;
}

/** One scripted model reply. */
export interface MockTurn {
  text?: string;
  thinking?: string;
  /** The thinking block's signature, as a provider that signs its reasoning gives it. */
  thinkingSignature?: string;
  toolCalls?: { name: string; input?: Record<string, unknown>; id?: string }[];
  /** Default: `tool_use` when there are tool calls, else `end_turn`. */
  stopReason?: StopReason;
  /** Default: 10 input tokens, and output of one token per 4 characters produced. */
  usage?: Partial<Usage>;
  error?: MockError;
  /** Wait before the first event, in milliseconds (overrides the provider's `latencyMs`). */
  latencyMs?: number;
  /** Never send anything, until aborted: a stalled connection. */
  hang?: boolean;
  /** Send this many text chunks, then nothing until aborted: a stream that goes silent midway. */
  stallAfterChunks?: number;
}

/** A reply, or a function that makes one from the request (`call` counts from 0). */
export type MockScript = MockTurn | ((request: ModelRequest, call: number) => MockTurn);
