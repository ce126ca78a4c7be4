/**
 * Streams in the providers' recorded wire formats, generated to any length:
 * the shape of real Anthropic Messages and OpenAI Chat Completions streams
 * (the fixtures of provider-anthropic and provider-openai), with text deltas in the middle.
 */

function word(index: number): string {
  return `w${index % 97} `;
}

/** An Anthropic Messages stream of exactly `events` SSE events. */
export function anthropicStream(events: number): string {
  const parts: string[] = [];
  const add = (type: string, data: unknown) =>
    parts.push(`event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
  add('message_start', {
    type: 'message_start',
    message: {
      id: 'msg_bench',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: 25,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 1,
      },
    },
  });
  add('content_block_start', {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'text', text: '' },
  });
  for (let index = 0; index < events - 5; index++) {
    add('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: word(index) },
    });
  }
  add('content_block_stop', { type: 'content_block_stop', index: 0 });
  add('message_delta', {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: events },
  });
  add('message_stop', { type: 'message_stop' });
  return parts.join('');
}

/** An OpenAI Chat Completions stream of exactly `events` SSE events, `[DONE]` included. */
export function openaiChatStream(events: number): string {
  const parts: string[] = [];
  const base = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: 'gpt-4o-mini-2024-07-18',
    service_tier: 'default',
    system_fingerprint: 'fp_bench',
  };
  const add = (choices: unknown[], usage: unknown = null) =>
    parts.push(`data: ${JSON.stringify({ ...base, choices, usage })}\n\n`);
  const choice = (delta: unknown, finish: string | null = null) => ({
    index: 0,
    delta,
    logprobs: null,
    finish_reason: finish,
  });
  add([choice({ role: 'assistant', content: '', refusal: null })]);
  for (let index = 0; index < events - 4; index++) add([choice({ content: word(index) })]);
  add([choice({}, 'stop')]);
  add([], {
    prompt_tokens: 12,
    completion_tokens: events,
    total_tokens: events + 12,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
  });
  parts.push('data: [DONE]\n\n');
  return parts.join('');
}
