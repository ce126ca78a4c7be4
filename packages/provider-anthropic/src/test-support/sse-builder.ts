import { sseEvent } from './anthropic-server.js';

/** Usage fields as the API reports them in `message_start`. */
export interface WireUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** `message_start`, with an empty assistant message as the API sends it. */
export function messageStart(
  model = 'claude-sonnet-4-6',
  usage: WireUsage = { input_tokens: 10, output_tokens: 1 },
) {
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

/** A whole text block: start, one delta per piece, stop. */
export function textBlock(index: number, pieces: string[]): string {
  let text = sseEvent('content_block_start', {
    type: 'content_block_start',
    index,
    content_block: { type: 'text', text: '' },
  });
  for (const piece of pieces) {
    text += sseEvent('content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: { type: 'text_delta', text: piece },
    });
  }
  return text + sseEvent('content_block_stop', { type: 'content_block_stop', index });
}

/** A whole tool_use block: start, one `input_json_delta` per piece, stop. */
export function toolUseBlock(index: number, id: string, name: string, jsonPieces: string[]): string {
  let text = sseEvent('content_block_start', {
    type: 'content_block_start',
    index,
    content_block: { type: 'tool_use', id, name, input: {} },
  });
  for (const piece of jsonPieces) {
    text += sseEvent('content_block_delta', {
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: piece },
    });
  }
  return text + sseEvent('content_block_stop', { type: 'content_block_stop', index });
}

/** `message_delta` with the stop reason and cumulative output tokens, then `message_stop`. */
export function messageEnd(stopReason: string | null, outputTokens = 5): string {
  return (
    sseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: outputTokens },
    }) + sseEvent('message_stop', { type: 'message_stop' })
  );
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
