import { propertySettings, soak } from '@agent-core/test-support';
import { readFileSync } from 'node:fs';
import { type ModelEvent, ProviderError } from '@agent-core/core';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { openai } from './openai.js';
import { chatChunk, chatDone, responsesEvent } from './test-support/fake-openai-server.js';

// The SSE parsing of both APIs, through the real SDK: a recorded stream cut into arbitrary byte
// pieces (inside a line, a JSON string, a multi-byte character) gives the same events and final
// message as the whole stream; bytes that are cut short, inserted or overwritten end the stream
// with `done` or one clear `error`, never a hang, a throw or an unhandled rejection. The bytes go
// to the SDK through its `fetch` option, each piece as its own read of the body, so the pieces
// reach the parser exactly as cut. `pnpm test:soak` runs many more cases.

// The soak run's many cases take minutes, not the default run's seconds. A failure prints its seed
// and path: AGENT_CORE_SEED and AGENT_CORE_PATH replay it.
if (soak) vi.setConfig({ testTimeout: 60 * 60_000 });
const settings = propertySettings;

const encoder = new TextEncoder();
let nextBody: Uint8Array[] = [];

async function fetchPieces(): Promise<Response> {
  const pieces = nextBody;
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[index++];
      if (piece === undefined) controller.close();
      else controller.enqueue(piece);
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

// One provider per API for every case: its fetch answers with the pieces of the case being run.
const providers = {
  chat: openai({ apiKey: 'sk-test', baseURL: 'http://fuzz.test/v1', fetch: fetchPieces }),
  responses: openai({
    apiKey: 'sk-test',
    baseURL: 'http://fuzz.test/v1',
    fetch: fetchPieces,
    api: 'responses',
  }),
};

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

const multiByteText = ['Grüße, ', '世界 ', '🌍🚀', ' — ok'];

/** A stream, its API, and the byte offset before which a cut must end with an error (the model had not finished). */
interface RecordedStream {
  api: 'chat' | 'responses';
  text: string;
  finishedFrom: (text: string) => number;
}

// Chat: a stream cut before the chunk with finish_reason lacks the end of the answer.
const chatFinish = (text: string) => text.search(/data: [^\n]*"finish_reason":"/);
// Responses: a stream cut before its last event lacks response.completed (or ended in failure).
const responsesEnd = (text: string) => text.lastIndexOf('event: ');

const streams: Record<string, RecordedStream> = {
  'chat text': { api: 'chat', text: fixture('chat-text.chunks.txt'), finishedFrom: chatFinish },
  'chat tool call': { api: 'chat', text: fixture('chat-tool-call.chunks.txt'), finishedFrom: chatFinish },
  'chat parallel calls': {
    api: 'chat',
    text: fixture('chat-parallel-tool-calls.chunks.txt'),
    finishedFrom: chatFinish,
  },
  'chat reasoning': {
    api: 'chat',
    text: fixture('chat-reasoning-content.chunks.txt'),
    finishedFrom: chatFinish,
  },
  'chat missing ids': { api: 'chat', text: fixture('chat-missing-id.chunks.txt'), finishedFrom: chatFinish },
  'chat multi-byte text': {
    api: 'chat',
    text: [...multiByteText.map((content) => chatChunk({ content })), chatChunk({}, 'stop'), chatDone].join(
      '',
    ),
    finishedFrom: chatFinish,
  },
  'responses text': {
    api: 'responses',
    text: fixture('responses-text.events.txt'),
    finishedFrom: responsesEnd,
  },
  'responses tool call': {
    api: 'responses',
    text: fixture('responses-tool-call.events.txt'),
    finishedFrom: responsesEnd,
  },
  'responses reasoning': {
    api: 'responses',
    text: fixture('responses-reasoning.events.txt'),
    finishedFrom: responsesEnd,
  },
  'responses failed': {
    api: 'responses',
    text: fixture('responses-failed.events.txt'),
    finishedFrom: responsesEnd,
  },
  'responses multi-byte text': {
    api: 'responses',
    text: [
      ...multiByteText.map((delta) =>
        responsesEvent({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, delta }),
      ),
      responsesEvent({
        type: 'response.completed',
        response: { id: 'resp_1', object: 'response', status: 'completed', output: [], usage: null },
      }),
    ].join(''),
    finishedFrom: responsesEnd,
  },
};

/** Streams `pieces` through the API's provider and returns every event; fails if the stream does not end. */
async function run(api: 'chat' | 'responses', pieces: Uint8Array[]): Promise<ModelEvent[]> {
  nextBody = pieces;
  const events: ModelEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the stream did not end within 10 s')), 10_000);
  });
  const read = (async () => {
    for await (const event of providers[api].stream({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
    }))
      events.push(event);
  })();
  try {
    await Promise.race([read, hang]);
  } finally {
    clearTimeout(timer);
  }
  return events;
}

/** Events as plain JSON, with the ids made up for calls that came without one (they differ per stream) made equal. */
function comparable(events: readonly ModelEvent[]): unknown {
  return JSON.parse(JSON.stringify(events).replace(/call_[0-9a-f]{8}_/g, 'call_made_up_'));
}

function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets)]
    .filter((point) => point > 0 && point < bytes.length)
    .sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  return pieces;
}

/** A stream's events end with exactly one `done` or `error`, and an error is a clear ProviderError. */
function expectSettled(events: readonly ModelEvent[]): ModelEvent {
  const last = events.at(-1);
  expect(last?.type === 'done' || last?.type === 'error', `last event: ${JSON.stringify(last)}`).toBe(true);
  expect(events.filter((event) => event.type === 'done' || event.type === 'error')).toHaveLength(1);
  if (last?.type === 'error') {
    expect(ProviderError.isInstance(last.error)).toBe(true);
    expect(last.error.message.length).toBeGreaterThan(10);
  }
  if (last?.type === 'done') expect(last.message.role).toBe('assistant');
  return last as ModelEvent;
}

describe.each(Object.entries(streams))(
  'the SSE of a recorded stream (%s)',
  (_, { api, text, finishedFrom }) => {
    const bytes = encoder.encode(text);
    const offsets = fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 });

    it('cut into arbitrary byte pieces gives the same events and message as whole', async () => {
      const whole = await run(api, [bytes]);
      expectSettled(whole);
      await fc.assert(
        fc.asyncProperty(offsets, async (points) => {
          expect(comparable(await run(api, cut(bytes, points)))).toEqual(comparable(whole));
        }),
        settings(15, 1000),
      );
    });

    it('cut short at any byte ends with done or one clear error, and with an error before the model finished', async () => {
      const unfinishedBefore = encoder.encode(text.slice(0, finishedFrom(text))).length;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: bytes.length - 1 }), offsets, async (end, points) => {
          const last = expectSettled(await run(api, cut(bytes.subarray(0, end), points)));
          if (end < unfinishedBefore) expect(last.type).toBe('error');
        }),
        settings(15, 1000),
      );
    });

    it('with bytes inserted or overwritten anywhere, ends with done or one clear error', async () => {
      const damage = fc.record({
        at: fc.integer({ min: 0, max: bytes.length }),
        bytes: fc.uint8Array({ minLength: 1, maxLength: 12 }),
        overwrite: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(
          fc.array(damage, { minLength: 1, maxLength: 4 }),
          offsets,
          async (damages, points) => {
            let damaged = bytes;
            for (const { at, bytes: inserted, overwrite } of damages) {
              const position = Math.min(at, damaged.length);
              const rest = damaged.subarray(
                Math.min(damaged.length, position + (overwrite ? inserted.length : 0)),
              );
              const next = new Uint8Array(position + inserted.length + rest.length);
              next.set(damaged.subarray(0, position));
              next.set(inserted, position);
              next.set(rest, position + inserted.length);
              damaged = next;
            }
            expectSettled(await run(api, cut(damaged, points)));
          },
        ),
        settings(15, 1000),
      );
    });
  },
);
