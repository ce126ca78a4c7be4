import type { ProviderWire, WirePart, WireReply } from '@agent-core/core/testing';
import { jsonHeaders, sseEvent, sseHeaders } from './sse.js';

/** Usage as the Messages API reports it in `message_start`. */
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** `message_start`, with an empty assistant message as the API sends it. */
export function messageStart(
  model = 'claude-sonnet-4-6',
  usage: AnthropicUsage = { input_tokens: 10, output_tokens: 1 },
): string {
  return sseEvent('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_01TestMessage',
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { cache_creation_input_tokens: 0, cache_read_input_tokens: 0, ...usage },
    },
  });
}

function blockStart(index: number, block: unknown): string {
  return sseEvent('content_block_start', { type: 'content_block_start', index, content_block: block });
}

function blockDelta(index: number, delta: unknown): string {
  return sseEvent('content_block_delta', { type: 'content_block_delta', index, delta });
}

function blockStop(index: number): string {
  return sseEvent('content_block_stop', { type: 'content_block_stop', index });
}

/** The events of a text block: start, one `text_delta` per piece, stop. */
export function textBlockEvents(index: number, pieces: readonly string[]): string[] {
  return [
    blockStart(index, { type: 'text', text: '' }),
    ...pieces.map((text) => blockDelta(index, { type: 'text_delta', text })),
    blockStop(index),
  ];
}

/** The events of a thinking block: start, one `thinking_delta` per piece, the signature, stop. */
export function thinkingBlockEvents(index: number, pieces: readonly string[], signature: string): string[] {
  return [
    blockStart(index, { type: 'thinking', thinking: '', signature: '' }),
    ...pieces.map((thinking) => blockDelta(index, { type: 'thinking_delta', thinking })),
    blockDelta(index, { type: 'signature_delta', signature }),
    blockStop(index),
  ];
}

/** The events of a tool_use block: start, one `input_json_delta` per piece, stop. */
export function toolUseBlockEvents(
  index: number,
  id: string,
  name: string,
  pieces: readonly string[],
): string[] {
  return [
    blockStart(index, { type: 'tool_use', id, name, input: {} }),
    ...pieces.map((partial_json) => blockDelta(index, { type: 'input_json_delta', partial_json })),
    blockStop(index),
  ];
}

/** A whole text block, as one string. */
export function textBlock(index: number, pieces: string[]): string {
  return textBlockEvents(index, pieces).join('');
}

/** A whole tool_use block, as one string. */
export function toolUseBlock(index: number, id: string, name: string, jsonPieces: string[]): string {
  return toolUseBlockEvents(index, id, name, jsonPieces).join('');
}

/** The events that end a message: `message_delta` with the stop reason and cumulative output tokens, then `message_stop`. */
export function messageEndEvents(stopReason: string | null, outputTokens = 5): string[] {
  return [
    sseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: outputTokens },
    }),
    sseEvent('message_stop', { type: 'message_stop' }),
  ];
}

/** `message_delta` and `message_stop`, as one string. */
export function messageEnd(stopReason: string | null, outputTokens = 5): string {
  return messageEndEvents(stopReason, outputTokens).join('');
}

/** A whole text-only response. */
export function textResponse(text: string, model?: string, stopReason = 'end_turn'): string {
  return messageStart(model) + textBlock(0, [text]) + messageEnd(stopReason);
}

/** A whole response that calls one tool. */
export function toolCallResponse(
  id: string,
  name: string,
  input: Record<string, unknown>,
  model?: string,
): string {
  return messageStart(model) + toolUseBlock(0, id, name, [JSON.stringify(input)]) + messageEnd('tool_use');
}

/** An API error body, as Anthropic sends with 4xx and 5xx responses. */
export function anthropicErrorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message }, request_id: 'req_test' };
}

/** The error type Anthropic names for an HTTP status. */
export function anthropicErrorType(status: number): string {
  const types: Record<number, string> = {
    400: 'invalid_request_error',
    401: 'authentication_error',
    403: 'permission_error',
    404: 'not_found_error',
    413: 'request_too_large',
    429: 'rate_limit_error',
    529: 'overloaded_error',
  };
  return types[status] ?? 'api_error';
}

function partEvents(part: WirePart, index: number): string[] {
  if (part.type === 'text') return textBlockEvents(index, part.pieces);
  if (part.type === 'thinking') return thinkingBlockEvents(index, part.pieces, part.signature);
  return toolUseBlockEvents(index, part.id, part.name, part.pieces);
}

/** The events of a whole reply, one SSE event each. */
export function anthropicReplyEvents(reply: WireReply): string[] {
  const { usage } = reply;
  return [
    messageStart(reply.model, {
      input_tokens: usage.input,
      output_tokens: 1,
      cache_read_input_tokens: usage.cacheRead,
      cache_creation_input_tokens: usage.cacheWrite,
    }),
    ...reply.parts.flatMap(partEvents),
    ...messageEndEvents(reply.stopReason, usage.output),
  ];
}

/** The Messages API's wire format for the provider kit. */
export const anthropicWire: ProviderWire = {
  stream: (reply) => ({
    headers: { ...sseHeaders, 'request-id': 'req_test' },
    chunks: anthropicReplyEvents(reply),
  }),
  error(status, message, { overflow }) {
    const body = anthropicErrorBody(
      anthropicErrorType(status),
      overflow ? 'prompt is too long: 210000 tokens > 200000 maximum' : message,
    );
    return { status, headers: { ...jsonHeaders, 'request-id': 'req_test' }, chunks: [JSON.stringify(body)] };
  },
};
