import { anthropic } from '@agent-core/provider-anthropic';
import { anthropicRequestProblems } from './wire-checks.js';
import { anthropicErrorBody, anthropicReplyEvents } from '@agent-core/test-support';
import { beforeHeaders, json, sse, textWireReply, toolWireReply, type WireDialect } from './wire-dialect.js';

/** The Anthropic Messages API: named events, `message_stop` last. */
export const anthropicDialect: WireDialect = {
  name: 'anthropic',
  model: 'claude-sonnet-4-6',
  provider: (origin) => anthropic({ baseURL: origin, apiKey: 'test-key' }),
  toolReply: (id) => anthropicReplyEvents(toolWireReply('claude-sonnet-4-5', id)),
  textReply: (text) => anthropicReplyEvents(textWireReply('claude-sonnet-4-5', text)),
  beforeHeaders: (kind) =>
    beforeHeaders(kind, {
      http_5xx: json(500, anthropicErrorBody('api_error', 'Internal server error')),
      overloaded: json(529, anthropicErrorBody('overloaded_error', 'Overloaded')),
    }),
  inStream(kind) {
    if (kind === 'http_5xx') return sse('error', anthropicErrorBody('api_error', 'Internal server error'));
    if (kind === 'overloaded') return sse('error', anthropicErrorBody('overloaded_error', 'Overloaded'));
    // A data line cut in the middle of its JSON.
    return 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_del\n\n';
  },
  hasToolResult: (body) => JSON.stringify(body).includes('"tool_result"'),
  // message_stop is the last event, and the provider reads nothing after it.
  finishedBefore: (_kind, point, events) => point >= events.length,
  requestProblems: (body) => anthropicRequestProblems(body as Parameters<typeof anthropicRequestProblems>[0]),
};
