import type { ModelEvent, Provider } from '../provider/provider.js';
import { providerErrorKindForStatus } from '../provider/provider-error.js';
import { canonicalJson } from './assertions.js';
import {
  type ConformanceCase,
  ConformanceFailure,
  type ConformanceHarness,
  registerCases,
} from './conformance-case.js';
import { callOnce, doneOf, type ProviderSetup, reply, richRequest, same } from './provider-checks.js';
import type { KitAnswer, ProviderWire, WireEndpoint, WireServe } from './provider-wire.js';

/** What a provider claims its backend does; each claim turns its checks on. */
export interface ProviderCapabilities {
  /** Streams the model's thinking (with a signature). Default false. */
  thinking?: boolean;
  /** Native tool calls. Default true. */
  toolCalls?: boolean;
  /** Reports usage. Default true. */
  usage?: boolean;
  /** Reports cache read tokens (prompt tokens served from the cache). Default false. */
  cacheRead?: boolean;
  /** Reports cache write tokens (prompt tokens written to the cache). Default false. */
  cacheWrite?: boolean;
  /** Reports a request longer than the context window as `context_overflow`. Default true. */
  contextOverflow?: boolean;
  /** Reads `Retry-After` into `retryAfterMs`. Default true. */
  retryAfter?: boolean;
}

/** Options of `providerConformance`: the harness, the wire format, the claims. */
export interface ProviderConformanceOptions extends Partial<ConformanceHarness> {
  /**
   * The backend's wire format (see `ProviderWire`). Without it the provider
   * is a stub: the factory makes it act out each scripted `answer` itself.
   */
  wire?: ProviderWire;
  capabilities?: ProviderCapabilities;
  /** The model name requests use. Default `conformance-model`. */
  model?: string;
  /**
   * Serves the kit's backend over real HTTP (on 127.0.0.1, say); without it
   * the provider is given a `fetch` that reaches the backend with no socket.
   */
  serve?: WireServe;
  /** How long a stream may take to end (after an abort too) before it counts as hung. Default 10 000 ms. */
  settleMs?: number;
}

/** HTTP statuses a backend answers with, each checked against `providerErrorKindForStatus`. */
const statuses = [400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503, 504, 529];

const text = ['Hel', 'lo, "wo', 'rld" – é\\n', '✓ done.'];

function deltas(events: readonly ModelEvent[], type: 'text_delta' | 'thinking_delta'): string {
  return events.map((event) => (event.type === type ? event.delta : '')).join('');
}

/**
 * The checks every provider must pass, for any test runner, against a
 * backend the kit scripts in the provider's own wire format (`wire`): text,
 * thinking, tool calls with arguments split at awkward places and malformed
 * ones, usage, each HTTP status to its error kind, `Retry-After`, a context
 * overflow, a cut stream, an abort while the stream is silent and before it
 * begins, and the request left unchanged. `factory` makes the provider for a
 * base URL and `fetch`. A failure names the rule it breaks.
 *
 * @example
 * providerConformance(({ baseURL, fetch }) => myProvider({ baseURL, fetch }), { wire: myWire, test, describe });
 */
export function providerConformance(
  factory: (endpoint: WireEndpoint) => Provider,
  options: ProviderConformanceOptions,
): ConformanceCase[] {
  const claims = options.capabilities ?? {};
  const setup: ProviderSetup = {
    factory,
    wire: options.wire,
    model: options.model ?? 'conformance-model',
    serve: options.serve,
    settleMs: options.settleMs ?? 10_000,
  };
  const stream = (parts: Parameters<typeof reply>[1], stop?: Parameters<typeof reply>[2]): KitAnswer => ({
    type: 'reply',
    reply: reply(setup, parts, stop),
  });
  const cases: ConformanceCase[] = [
    {
      name: 'streams text and ends with one done message holding it',
      async run() {
        const { events, bodies } = await callOnce(setup, stream([{ type: 'text', pieces: text }]));
        const message = doneOf(events, 'text_streamed');
        same('text_streamed', 'the done message content', message.content, [
          { type: 'text', text: text.join('') },
        ]);
        if (message.role !== 'assistant' || message.stopReason !== 'end_turn')
          throw new ConformanceFailure(
            'text_streamed',
            `the done message is ${message.role} with stopReason ${message.stopReason}`,
          );
        const streamed = deltas(events, 'text_delta');
        if (streamed !== '' && streamed !== text.join(''))
          throw new ConformanceFailure(
            'text_streamed',
            `the text deltas make ${JSON.stringify(streamed)}, the message ${JSON.stringify(text.join(''))}`,
          );
        if (setup.wire !== undefined && (bodies.length !== 1 || !bodies[0]?.includes('what is in the note')))
          throw new ConformanceFailure(
            'request_sent',
            'the backend did not receive the request with the history',
          );
        if (claims.usage ?? true) {
          const usage = message.usage;
          if (usage === undefined || usage.input !== 42 || usage.output !== 17)
            throw new ConformanceFailure(
              'usage_reported',
              `the done message's usage is ${JSON.stringify(usage)}, the backend said 42 in, 17 out`,
            );
          if (
            (claims.cacheRead === true && usage.cacheRead !== 5) ||
            (claims.cacheWrite === true && usage.cacheWrite !== 3)
          )
            throw new ConformanceFailure(
              'usage_reported',
              `cache tokens ${usage.cacheRead} read, ${usage.cacheWrite} written; the backend said 5 and 3`,
            );
        }
      },
    },
    {
      name: 'leaves the request it is given unchanged',
      async run() {
        const request = richRequest(setup.model);
        const before = canonicalJson(request);
        await callOnce(setup, stream([{ type: 'text', pieces: ['ok'] }]), { request });
        await callOnce(setup, stream([{ type: 'text', pieces: ['again'] }]), { request });
        if (canonicalJson(request) !== before)
          throw new ConformanceFailure(
            'request_unchanged',
            `stream() changed the request it was given (its messages are the agent's history): before ${before.slice(0, 300)}, after ${canonicalJson(request).slice(0, 300)}`,
          );
      },
    },
  ];
  if (claims.thinking === true)
    cases.push({
      name: 'streams thinking and keeps it, signed, in the done message',
      async run() {
        const thinking = ['Let me ', 'think: 6', '*7.'];
        const { events } = await callOnce(
          setup,
          stream([
            { type: 'thinking', pieces: thinking, signature: 'sig-123' },
            { type: 'text', pieces: ['42'] },
          ]),
        );
        const message = doneOf(events, 'thinking_streamed');
        same('thinking_streamed', 'the done message content', message.content, [
          { type: 'thinking', thinking: thinking.join(''), signature: 'sig-123' },
          { type: 'text', text: '42' },
        ]);
        const streamed = deltas(events, 'thinking_delta');
        if (streamed !== '' && streamed !== thinking.join(''))
          throw new ConformanceFailure(
            'thinking_streamed',
            `the thinking deltas make ${JSON.stringify(streamed)}`,
          );
      },
    });
  if (claims.toolCalls ?? true) {
    cases.push(
      {
        name: 'keeps every tool call, its arguments split anywhere, in the done message',
        async run() {
          const first = ['{"pa', 'th": "no', 'tes/\\u00', 'e9.txt", "li', 'nes": [1', ', 22]}'];
          const second = ['', '{"deep": {"list": [{"a": tr', 'ue}], "n": -1.5e', '3}, "empty": ""}'];
          const { events } = await callOnce(
            setup,
            stream(
              [
                { type: 'text', pieces: ['Reading.'] },
                { type: 'toolCall', id: 'call_one', name: 'read_note', pieces: first },
                { type: 'toolCall', id: 'call_two', name: 'read_note', pieces: second },
              ],
              'tool_use',
            ),
          );
          const message = doneOf(events, 'tool_calls_kept');
          const calls = message.content.filter((block) => block.type === 'toolCall');
          same('tool_calls_kept', 'the tool calls of the done message', calls, [
            {
              type: 'toolCall',
              id: 'call_one',
              name: 'read_note',
              input: { path: 'notes/é.txt', lines: [1, 22] },
            },
            {
              type: 'toolCall',
              id: 'call_two',
              name: 'read_note',
              input: { deep: { list: [{ a: true }], n: -1500 }, empty: '' },
            },
          ]);
          if (message.stopReason !== 'tool_use')
            throw new ConformanceFailure(
              'tool_calls_kept',
              `the stop reason is ${message.stopReason}, not tool_use`,
            );
          for (const event of events) {
            const id =
              event.type === 'toolcall_start'
                ? event.id
                : event.type === 'toolcall_end'
                  ? event.toolCall.id
                  : undefined;
            if (id !== undefined && !calls.some((call) => call.id === id))
              throw new ConformanceFailure(
                'tool_calls_kept',
                `tool call '${id}' was streamed but the done message lacks it`,
              );
          }
        },
      },
      {
        name: 'reports arguments that are not JSON as a malformed reply, never as a call with other input',
        async run() {
          const { events } = await callOnce(
            setup,
            stream(
              [
                {
                  type: 'toolCall',
                  id: 'call_bad',
                  name: 'read_note',
                  pieces: ['{"path": "a', '.txt", oops}'],
                },
              ],
              'tool_use',
            ),
          );
          const last = events.at(-1);
          if (last?.type !== 'error' || last.error.kind !== 'malformed')
            throw new ConformanceFailure(
              'malformed_arguments',
              `arguments that are not JSON should end the stream with a malformed error (retried: the model may do better), got ${last?.type === 'error' ? `a ${last.error.kind} error` : `a done message with ${JSON.stringify(last?.type === 'done' ? last.message.content : last)}`}`,
            );
        },
      },
    );
  }
  cases.push(
    {
      name: 'maps each HTTP status to its error kind, retryable as the kind says',
      async run() {
        for (const status of statuses) {
          const { events } = await callOnce(setup, {
            type: 'status',
            status,
            message: `status ${status}`,
            overflow: false,
          });
          const last = events.at(-1);
          const expected = providerErrorKindForStatus(status);
          if (last?.type !== 'error' || last.error.kind !== expected)
            throw new ConformanceFailure(
              'status_kind',
              `HTTP ${status} should end the stream with a ${expected} error, got ${last?.type === 'error' ? last.error.kind : last?.type}`,
            );
          const retryable = ['rate_limit', 'overloaded', 'server', 'network', 'malformed'].includes(expected);
          if (last.error.retryable !== retryable)
            throw new ConformanceFailure(
              'status_kind',
              `HTTP ${status} (${expected}) should be retryable: ${retryable}`,
            );
        }
      },
    },
    {
      name: 'a stream cut in the middle ends with a retryable error, never a done',
      async run() {
        const { events } = await callOnce(setup, {
          type: 'cut',
          reply: reply(setup, [{ type: 'text', pieces: text }]),
        });
        const last = events.at(-1);
        if (last?.type !== 'error' || !last.error.retryable)
          throw new ConformanceFailure(
            'cut_stream',
            `a cut stream ended with ${last?.type === 'error' ? `a ${last.error.kind} error that is not retryable` : last?.type}`,
          );
      },
    },
    {
      name: 'an abort while the stream is silent, or before it begins, ends it promptly',
      async run() {
        const stalled: KitAnswer = { type: 'stall', reply: reply(setup, [{ type: 'text', pieces: text }]) };
        for (const abortAfter of [1, 0]) {
          const { events } = await callOnce(setup, stalled, { abortAfter });
          const last = events.at(-1);
          if (last?.type === 'done' && last.message.stopReason !== 'aborted')
            throw new ConformanceFailure(
              'abort_ends_stream',
              `an aborted stream ended with a done message whose stopReason is ${last.message.stopReason}, not aborted`,
            );
        }
      },
    },
  );
  if (claims.retryAfter ?? true)
    cases.push({
      name: 'reads Retry-After into retryAfterMs',
      async run() {
        const { events } = await callOnce(setup, {
          type: 'status',
          status: 429,
          message: 'slow down',
          overflow: false,
          retryAfter: '7',
        });
        const last = events.at(-1);
        if (last?.type !== 'error' || last.error.kind !== 'rate_limit' || last.error.retryAfterMs !== 7000)
          throw new ConformanceFailure(
            'retry_after',
            `HTTP 429 with Retry-After: 7 should give a rate_limit error with retryAfterMs 7000, got ${last?.type === 'error' ? `${last.error.kind} with ${last.error.retryAfterMs}` : last?.type}`,
          );
      },
    });
  if (claims.contextOverflow ?? true)
    cases.push({
      name: 'reports a request longer than the context window as context_overflow, so compaction can run',
      async run() {
        const { events } = await callOnce(setup, {
          type: 'status',
          status: 400,
          message: 'prompt is too long: 210000 tokens > 200000 maximum',
          overflow: true,
        });
        const last = events.at(-1);
        if (last?.type !== 'error' || last.error.kind !== 'context_overflow')
          throw new ConformanceFailure(
            'context_overflow',
            `the backend's context overflow gave ${last?.type === 'error' ? `a ${last.error.kind} error` : last?.type}; report kind 'context_overflow' (isContextOverflowMessage helps) or compaction never runs`,
          );
      },
    });
  return registerCases('providerConformance', cases, options);
}
