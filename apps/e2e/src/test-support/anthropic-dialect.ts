import { anthropic } from '@agent-core/provider-anthropic';
import { anthropicRequestProblems } from './wire-checks.js';
import { beforeHeaders, calculatorArguments, json, sse, type WireDialect } from './wire-dialect.js';

const anthropicError = (type: string, message: string) => ({
  type: 'error',
  error: { type, message },
  request_id: 'req_fault',
});

/** The Anthropic Messages API: named events, `message_stop` last. */
export const anthropicDialect: WireDialect = {
  name: 'anthropic',
  model: 'claude-sonnet-4-6',
  provider: (origin) => anthropic({ baseURL: origin, apiKey: 'test-key' }),
  toolReply(id) {
    const start = {
      type: 'message_start',
      message: {
        id: `msg_${id}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 20, output_tokens: 1 },
      },
    };
    return [
      sse('message_start', start),
      sse('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '' },
      }),
      ...['Let me ', 'compute.'].map((text) =>
        sse('content_block_delta', {
          type: 'content_block_delta',
          index: 0,
          delta: { type: 'text_delta', text },
        }),
      ),
      sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
      sse('content_block_start', {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id, name: 'calculator', input: {} },
      }),
      ...calculatorArguments.map((partial_json) =>
        sse('content_block_delta', {
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json },
        }),
      ),
      sse('content_block_stop', { type: 'content_block_stop', index: 1 }),
      sse('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 12 },
      }),
      sse('message_stop', { type: 'message_stop' }),
    ];
  },
  textReply(text) {
    return [
      sse('message_start', {
        type: 'message_start',
        message: {
          id: 'msg_text',
          type: 'message',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 30, output_tokens: 1 },
        },
      }),
      sse('content_block_start', {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'text', text: '' },
      }),
      sse('content_block_delta', {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text },
      }),
      sse('content_block_stop', { type: 'content_block_stop', index: 0 }),
      sse('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 5 },
      }),
      sse('message_stop', { type: 'message_stop' }),
    ];
  },
  beforeHeaders: (kind) =>
    beforeHeaders(kind, {
      http_5xx: json(500, anthropicError('api_error', 'Internal server error')),
      overloaded: json(529, anthropicError('overloaded_error', 'Overloaded')),
    }),
  inStream(kind) {
    if (kind === 'http_5xx') return sse('error', anthropicError('api_error', 'Internal server error'));
    if (kind === 'overloaded') return sse('error', anthropicError('overloaded_error', 'Overloaded'));
    // A data line cut in the middle of its JSON.
    return 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_del\n\n';
  },
  hasToolResult: (body) => JSON.stringify(body).includes('"tool_result"'),
  // message_stop is the last event, and the provider reads nothing after it.
  finishedBefore: (_kind, point, events) => point >= events.length,
  requestProblems: (body) => anthropicRequestProblems(body as Parameters<typeof anthropicRequestProblems>[0]),
};
