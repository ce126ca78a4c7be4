import type { ProviderWire, WireReply } from '@agent-core/core/testing';
import { jsonHeaders, sseEvent, sseHeaders } from './sse.js';

/** One Chat Completions stream chunk with this `delta` (and finish reason). */
export function chatChunk(model: string, delta: unknown, finishReason: string | null = null): string {
  return sseEvent(undefined, {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    usage: null,
  });
}

/** The usage-only chunk a stream ends with when `stream_options.include_usage` is set. */
export function chatUsageChunk(model: string, prompt: number, completion: number, cached = 0): string {
  return sseEvent(undefined, {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model,
    choices: [],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: cached },
    },
  });
}

/** The stream's last line. */
export const chatDone = 'data: [DONE]\n\n';

const finishReasons = { end_turn: 'stop', tool_use: 'tool_calls', max_tokens: 'length' } as const;

/** The chunks of a whole reply: one per text piece or argument piece, the finish, the usage, `[DONE]`. */
export function chatReplyChunks(reply: WireReply): string[] {
  const { model, usage } = reply;
  const chunks = [chatChunk(model, { role: 'assistant', content: '' })];
  let call = 0;
  for (const part of reply.parts) {
    if (part.type === 'text') for (const content of part.pieces) chunks.push(chatChunk(model, { content }));
    else if (part.type === 'thinking')
      for (const reasoning_content of part.pieces) chunks.push(chatChunk(model, { reasoning_content }));
    else {
      const index = call++;
      chunks.push(
        chatChunk(model, {
          tool_calls: [
            { index, id: part.id, type: 'function', function: { name: part.name, arguments: '' } },
          ],
        }),
      );
      for (const piece of part.pieces)
        chunks.push(chatChunk(model, { tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  chunks.push(chatChunk(model, {}, finishReasons[reply.stopReason]));
  // OpenAI counts cached tokens inside the prompt tokens.
  chunks.push(chatUsageChunk(model, usage.input + usage.cacheRead, usage.output, usage.cacheRead));
  chunks.push(chatDone);
  return chunks;
}

/** An OpenAI error body. */
export function openaiErrorBody(
  message: string,
  type: string,
  code: string | null = null,
  param: string | null = null,
) {
  return { error: { message, type, param, code } };
}

/** The error response OpenAI sends for a status; with `overflow`, its context_length_exceeded refusal. */
export function openaiError(status: number, message: string, overflow: boolean) {
  const body = overflow
    ? openaiErrorBody(
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 130412 tokens. Please reduce the length of the messages.",
        'invalid_request_error',
        'context_length_exceeded',
        'messages',
      )
    : openaiErrorBody(message, status >= 500 ? 'server_error' : 'invalid_request_error');
  return { status, headers: { ...jsonHeaders, 'x-request-id': 'req_test' }, chunks: [JSON.stringify(body)] };
}

/** The Chat Completions wire format for the provider kit. */
export const chatWire: ProviderWire = {
  stream: (reply) => ({ headers: sseHeaders, chunks: chatReplyChunks(reply) }),
  error: (status, message, { overflow }) => openaiError(status, message, overflow),
};
