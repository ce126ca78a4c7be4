import { openai } from '@agent-core/provider-openai';
import { chatRequestProblems, responsesRequestProblems } from './wire-checks.js';
import { chatReplyChunks, responsesReplyEvents } from '@agent-core/test-support';
import {
  beforeHeaders,
  type FaultKind,
  json,
  sse,
  textWireReply,
  toolWireReply,
  type WireDialect,
} from './wire-dialect.js';

// OpenAI's own words for an overloaded or failing server, inside a stream that began with HTTP 200.
const openaiOverloaded = {
  type: 'service_unavailable_error',
  code: 'server_is_overloaded',
  message: 'Our servers are currently overloaded. Please try again later.',
  param: null,
};
const openaiServerError = {
  type: 'server_error',
  code: 'server_error',
  message: 'The server had an error while processing your request. Sorry about that!',
  param: null,
};

const openaiBeforeHeaders = (kind: FaultKind) =>
  beforeHeaders(kind, {
    http_5xx: json(500, { error: openaiServerError }),
    overloaded: json(503, { error: openaiOverloaded }),
  });

/** OpenAI Chat Completions: `data:` chunks, then usage, then `[DONE]`. */
export const chatDialect: WireDialect = {
  name: 'openai-chat',
  model: 'gpt-4o-mini',
  provider: (origin) => openai({ baseURL: `${origin}/v1`, apiKey: 'test-key' }),
  toolReply: (id) => chatReplyChunks(toolWireReply('gpt-4o-mini', id)),
  textReply: (text) => chatReplyChunks(textWireReply('gpt-4o-mini', text)),
  beforeHeaders: openaiBeforeHeaders,
  inStream(kind) {
    if (kind === 'http_5xx') return sse(undefined, { error: openaiServerError });
    if (kind === 'overloaded') return sse(undefined, { error: openaiOverloaded });
    return 'data: {"id":"chatcmpl-fault","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"cont\n\n';
  },
  hasToolResult: (body) => JSON.stringify(body).includes('"role":"tool"'),
  // The stream ends finish_reason, usage, [DONE]: after the usage the provider reads no more, and a
  // connection lost after finish_reason costs at most the usage.
  finishedBefore: (kind, point, events) =>
    point >= events.length - 1 || (point === events.length - 2 && kind === 'drop'),
  requestProblems: (body) => chatRequestProblems(body as Parameters<typeof chatRequestProblems>[0]),
};

/** OpenAI Responses: named, numbered events, `response.completed` last. */
export const responsesDialect: WireDialect = {
  name: 'openai-responses',
  model: 'gpt-4.1-mini',
  provider: (origin) => openai({ baseURL: `${origin}/v1`, apiKey: 'test-key', api: 'responses' }),
  toolReply: (id) => responsesReplyEvents(toolWireReply('gpt-4.1-mini', id)),
  textReply: (text) => responsesReplyEvents(textWireReply('gpt-4.1-mini', text)),
  beforeHeaders: openaiBeforeHeaders,
  inStream(kind, sequence) {
    if (kind === 'http_5xx')
      return sse('error', { type: 'error', sequence_number: sequence, error: openaiServerError });
    if (kind === 'overloaded')
      return sse('error', { type: 'error', sequence_number: sequence, error: openaiOverloaded });
    return 'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","item_id":"msg_fault","del\n\n';
  },
  hasToolResult: (body) => JSON.stringify(body).includes('"function_call_output"'),
  // response.completed is the last event, and the provider reads nothing after it.
  finishedBefore: (_kind, point, events) => point >= events.length,
  requestProblems: (body) => responsesRequestProblems(body as Parameters<typeof responsesRequestProblems>[0]),
};
