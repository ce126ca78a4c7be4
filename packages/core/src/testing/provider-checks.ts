import type { AssistantMessage, Message } from '../messages/messages.js';
import type { ModelEvent, ModelRequest, Provider } from '../provider/provider.js';
import { canonicalJson } from './assertions.js';
import { ConformanceFailure } from './conformance-case.js';
import type { KitAnswer, ProviderWire, WireEndpoint, WireReply, WireServe } from './provider-wire.js';
import { type ScriptedResponse, type WireLog, wireEndpoint, wireHandler } from './wire-endpoint.js';

/** How the provider kit reaches the provider under test. */
export interface ProviderSetup {
  factory: (endpoint: WireEndpoint) => Provider;
  /** The backend's wire format; without it the provider is a stub that acts out each `answer` itself. */
  wire: ProviderWire | undefined;
  model: string;
  serve: WireServe | undefined;
  settleMs: number;
}

/** What one call of the provider gave: its events (or what it threw), and what the backend received. */
export interface StreamOutcome {
  events: ModelEvent[];
  bodies: string[];
}

/** A request with every kind of content a history holds, to send and to check it is left as it was. */
export function richRequest(model: string): ModelRequest {
  const messages: Message[] = [
    { role: 'user', content: 'Hello there, what is in the note?' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Let me read it.' },
        {
          type: 'toolCall',
          id: 'call_earlier',
          name: 'read_note',
          input: { path: 'notes/a.txt', lines: [1, 2] },
        },
      ],
      stopReason: 'tool_use',
    },
    {
      role: 'toolResult',
      toolCallId: 'call_earlier',
      toolName: 'read_note',
      content: [{ type: 'text', text: 'The note says "hi".' }],
      isError: false,
    },
    { role: 'assistant', content: [{ type: 'text', text: 'It says hi.' }], stopReason: 'end_turn' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'And now?' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      ],
    },
  ];
  return {
    model,
    system: 'You are terse.',
    messages,
    tools: [
      {
        name: 'read_note',
        description: 'Reads a note.',
        parameters: {
          type: 'object',
          properties: { path: { type: 'string' }, lines: { type: 'array', items: { type: 'integer' } } },
          required: ['path'],
        },
      },
    ],
    maxTokens: 256,
    temperature: 0.5,
    stopSequences: ['\nObservation:'],
    toolChoice: 'auto',
  };
}

/**
 * Calls the provider once against a backend that answers `response` (its body
 * ending as `ending`), aborting the call when `abortAfter` events have come
 * (0: before the call). Fails with `never_throws` when the stream throws and
 * `stream_ends` when it does not end within `settleMs`.
 */
export async function callOnce(
  setup: ProviderSetup,
  answer: KitAnswer,
  options: { abortAfter?: number; request?: ModelRequest } = {},
): Promise<StreamOutcome> {
  const log: WireLog = { bodies: [] };
  const scripted = setup.wire === undefined ? [] : [wireAnswer(setup.wire, answer)];
  const endpoint = await wireEndpoint(wireHandler(scripted, log), setup.serve);
  const controller = new AbortController();
  if (options.abortAfter === 0) controller.abort();
  const events: ModelEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const provider = setup.factory({ baseURL: endpoint.baseURL, fetch: endpoint.fetch, answer });
    const request = options.request ?? richRequest(setup.model);
    const reading = (async () => {
      for await (const event of provider.stream(request, { signal: controller.signal })) {
        events.push(event);
        if (options.abortAfter !== undefined && events.length === options.abortAfter) controller.abort();
      }
    })();
    const hung = new Promise<'hung'>((resolve) => {
      timer = setTimeout(resolve, setup.settleMs, 'hung');
    });
    let outcome: 'hung' | undefined;
    try {
      outcome = await Promise.race([reading.then(() => undefined), hung]);
    } catch (error) {
      throw new ConformanceFailure(
        'never_throws',
        `stream() threw instead of ending with an error event: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    if (outcome === 'hung')
      throw new ConformanceFailure(
        'stream_ends',
        `the stream did not end within ${setup.settleMs} ms${controller.signal.aborted ? ' of its abort' : ''} (events so far: ${events.map((event) => event.type).join(', ')})`,
      );
    checkLast(events);
    return { events, bodies: log.bodies };
  } finally {
    clearTimeout(timer);
    await endpoint.close();
  }
}

/** The HTTP response a wire writes for an answer, and how its body ends. */
function wireAnswer(wire: ProviderWire, answer: KitAnswer): ScriptedResponse {
  if (answer.type === 'status') {
    const response = wire.error(answer.status, answer.message, { overflow: answer.overflow });
    if (answer.retryAfter === undefined) return { response, ending: 'end' };
    return {
      response: { ...response, headers: { ...response.headers, 'retry-after': answer.retryAfter } },
      ending: 'end',
    };
  }
  const response = wire.stream(answer.reply);
  if (answer.type === 'reply') return { response, ending: 'end' };
  // Lost or silent halfway: the first half of the chunks, then the ending.
  const chunks = response.chunks.slice(0, Math.max(1, Math.floor(response.chunks.length / 2)));
  return { response: { ...response, chunks }, ending: answer.type };
}

/** Exactly one final event, `done` or `error`, and nothing after it. */
function checkLast(events: readonly ModelEvent[]): void {
  const finals = events.filter((event) => event.type === 'done' || event.type === 'error');
  const last = events.at(-1);
  if (finals.length !== 1 || (last?.type !== 'done' && last?.type !== 'error'))
    throw new ConformanceFailure(
      'one_final_event',
      `a stream ends with exactly one done or error event, last; got ${events.map((event) => event.type).join(', ') || 'no events'}`,
    );
}

/** The final message, or a `rule` failure saying what came instead. */
export function doneOf(events: readonly ModelEvent[], rule: string): AssistantMessage {
  const last = events.at(-1);
  if (last?.type === 'done') return last.message;
  throw new ConformanceFailure(
    rule,
    `expected a done event, got ${last?.type === 'error' ? `an error (${last.error.kind}): ${last.error.message}` : JSON.stringify(last)}`,
  );
}

/** Throws `rule` unless `actual` and `expected` have the same JSON. */
export function same(rule: string, what: string, actual: unknown, expected: unknown): void {
  if (canonicalJson(actual) !== canonicalJson(expected))
    throw new ConformanceFailure(
      rule,
      `${what}: expected ${canonicalJson(expected)}, got ${canonicalJson(actual)}`,
    );
}

/** A streamed reply of the given parts. */
export function reply(
  setup: ProviderSetup,
  parts: WireReply['parts'],
  stopReason: WireReply['stopReason'] = 'end_turn',
): WireReply {
  return {
    model: setup.model,
    parts,
    stopReason,
    usage: { input: 42, output: 17, cacheRead: 5, cacheWrite: 3 },
  };
}
