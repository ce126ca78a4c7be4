import type { Provider } from '@agent-core/core';
import { anthropic } from '@agent-core/provider-anthropic';
import { openai } from '@agent-core/provider-openai';
import type { ServerReply } from './fault-server.js';
import { anthropicRequestProblems, chatRequestProblems, responsesRequestProblems } from './wire-checks.js';

/** A fault a server or the network can inject into one streamed reply. */
export type FaultKind = 'drop' | 'stall' | 'http_5xx' | 'overloaded' | 'malformed';

/** Every fault kind, in the order reports list them. */
export const faultKinds: readonly FaultKind[] = ['drop', 'stall', 'http_5xx', 'overloaded', 'malformed'];

/**
 * One provider API as it goes over the wire: its replies as SSE events and
 * the faults its servers really send, in their own words.
 */
export interface WireDialect {
  name: 'anthropic' | 'openai-chat' | 'openai-responses';
  /** A model the provider knows. */
  model: string;
  /** A provider on the real SDK talking to `origin`. */
  provider(origin: string): Provider;
  /** A reply with text, then a call of `calculator` with `{ expression: '15*3' }` under `id`. */
  toolReply(id: string): string[];
  /** A reply with text only. */
  textReply(text: string): string[];
  /** The answer to a fault before any response header. */
  beforeHeaders(kind: FaultKind): ServerReply;
  /** The event a server sends for `http_5xx`, `overloaded` or `malformed` once the stream has begun. */
  inStream(kind: 'http_5xx' | 'overloaded' | 'malformed', sequence: number): string;
  /** True when a request body holds a tool result: the answer to it is text. */
  hasToolResult(body: unknown): boolean;
  /**
   * True when the reply `events` is whole for the client once `point` of them
   * arrived before a fault of `kind`: what comes after cannot cost the answer.
   */
  finishedBefore(kind: FaultKind, point: number, events: readonly string[]): boolean;
  /** What the API would refuse in a request body (see `wire-checks.ts`). */
  requestProblems(body: unknown): string[];
}

const calculatorArguments = ['{"expression":', ' "15*3"}'];

function sse(event: string | undefined, data: unknown): string {
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

function json(status: number, body: unknown): ServerReply {
  return { type: 'http', status, contentType: 'application/json', body: JSON.stringify(body) };
}

/** What a proxy in front of the API answers when it has nothing better: a 200 page that is not a stream. */
const proxyPage: ServerReply = {
  type: 'http',
  status: 200,
  contentType: 'text/html',
  body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
};

function beforeHeaders(kind: FaultKind, errors: Record<'http_5xx' | 'overloaded', ServerReply>): ServerReply {
  if (kind === 'drop') return { type: 'drop' };
  if (kind === 'stall') return { type: 'hang' };
  if (kind === 'malformed') return proxyPage;
  return errors[kind];
}

const anthropicError = (type: string, message: string) => ({
  type: 'error',
  error: { type, message },
  request_id: 'req_fault',
});

const anthropicDialect: WireDialect = {
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

const chatChunk = (delta: object, finish: string | null = null) =>
  sse(undefined, {
    id: 'chatcmpl-fault',
    object: 'chat.completion.chunk',
    created: 1_767_225_600,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  });

const chatUsage = sse(undefined, {
  id: 'chatcmpl-fault',
  object: 'chat.completion.chunk',
  created: 1_767_225_600,
  model: 'gpt-4o-mini',
  choices: [],
  usage: { prompt_tokens: 20, completion_tokens: 12, total_tokens: 32 },
});

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

const chatDialect: WireDialect = {
  name: 'openai-chat',
  model: 'gpt-4o-mini',
  provider: (origin) => openai({ baseURL: `${origin}/v1`, apiKey: 'test-key' }),
  toolReply(id) {
    return [
      chatChunk({ role: 'assistant', content: '' }),
      chatChunk({ content: 'Let me ' }),
      chatChunk({ content: 'compute.' }),
      chatChunk({
        tool_calls: [{ index: 0, id, type: 'function', function: { name: 'calculator', arguments: '' } }],
      }),
      ...calculatorArguments.map((piece) =>
        chatChunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] }),
      ),
      chatChunk({}, 'tool_calls'),
      chatUsage,
      'data: [DONE]\n\n',
    ];
  },
  textReply(text) {
    return [
      chatChunk({ role: 'assistant', content: '' }),
      chatChunk({ content: text }),
      chatChunk({}, 'stop'),
      chatUsage,
      'data: [DONE]\n\n',
    ];
  },
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

function responseObject(status: string, output: unknown[], usage: unknown) {
  return {
    id: 'resp_fault',
    object: 'response',
    created_at: 1_767_225_600,
    status,
    error: null,
    incomplete_details: null,
    model: 'gpt-4.1-mini',
    output,
    usage,
  };
}

const responsesUsage = {
  input_tokens: 20,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: 12,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 32,
};

/** A Responses event before it is numbered. */
type ResponsesEvent = { type: string } & Record<string, unknown>;

/** Responses events numbered in order, as the API numbers them. */
function numbered(events: ResponsesEvent[]): string[] {
  return events.map((event, sequence) => sse(event.type, { ...event, sequence_number: sequence }));
}

function responsesMessage(text: string, pieces: string[], outputIndex: number): ResponsesEvent[] {
  const item = { id: 'msg_fault', type: 'message', status: 'completed', role: 'assistant' };
  const part = { type: 'output_text', text, annotations: [] };
  return [
    {
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { ...item, status: 'in_progress', content: [] },
    },
    {
      type: 'response.content_part.added',
      item_id: 'msg_fault',
      output_index: outputIndex,
      content_index: 0,
      part: { ...part, text: '' },
    },
    ...pieces.map((delta) => ({
      type: 'response.output_text.delta',
      item_id: 'msg_fault',
      output_index: outputIndex,
      content_index: 0,
      delta,
    })),
    {
      type: 'response.output_text.done',
      item_id: 'msg_fault',
      output_index: outputIndex,
      content_index: 0,
      text,
    },
    {
      type: 'response.content_part.done',
      item_id: 'msg_fault',
      output_index: outputIndex,
      content_index: 0,
      part,
    },
    { type: 'response.output_item.done', output_index: outputIndex, item: { ...item, content: [part] } },
  ];
}

const responsesDialect: WireDialect = {
  name: 'openai-responses',
  model: 'gpt-4.1-mini',
  provider: (origin) => openai({ baseURL: `${origin}/v1`, apiKey: 'test-key', api: 'responses' }),
  toolReply(id) {
    const call = { id: `fc_${id}`, type: 'function_call', call_id: id, name: 'calculator' };
    const argumentsText = calculatorArguments.join('');
    const done = { ...call, status: 'completed', arguments: argumentsText };
    return numbered([
      { type: 'response.created', response: responseObject('in_progress', [], null) },
      ...responsesMessage('Let me compute.', ['Let me ', 'compute.'], 0),
      {
        type: 'response.output_item.added',
        output_index: 1,
        item: { ...call, status: 'in_progress', arguments: '' },
      },
      ...calculatorArguments.map((delta) => ({
        type: 'response.function_call_arguments.delta',
        item_id: call.id,
        output_index: 1,
        delta,
      })),
      {
        type: 'response.function_call_arguments.done',
        item_id: call.id,
        output_index: 1,
        arguments: argumentsText,
      },
      { type: 'response.output_item.done', output_index: 1, item: done },
      { type: 'response.completed', response: responseObject('completed', [done], responsesUsage) },
    ]);
  },
  textReply(text) {
    return numbered([
      { type: 'response.created', response: responseObject('in_progress', [], null) },
      ...responsesMessage(text, [text], 0),
      { type: 'response.completed', response: responseObject('completed', [], responsesUsage) },
    ]);
  },
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

/** The three wire formats the providers speak. */
export const wireDialects: readonly WireDialect[] = [anthropicDialect, chatDialect, responsesDialect];
