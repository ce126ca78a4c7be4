import { openai } from '@agent-core/provider-openai';
import { chatRequestProblems, responsesRequestProblems } from './wire-checks.js';
import {
  beforeHeaders,
  calculatorArguments,
  type FaultKind,
  json,
  sse,
  type WireDialect,
} from './wire-dialect.js';

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

/** OpenAI Chat Completions: `data:` chunks, then usage, then `[DONE]`. */
export const chatDialect: WireDialect = {
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

/** OpenAI Responses: named, numbered events, `response.completed` last. */
export const responsesDialect: WireDialect = {
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
