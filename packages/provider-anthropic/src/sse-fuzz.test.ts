import { propertySettings, soak } from '@agent-core/test-support';
import { messageEnd, messageStart, textBlock } from '@agent-core/test-support';
import { type ModelEvent, ProviderError } from '@agent-core/core';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { anthropic } from './anthropic.js';
import { fixture } from './test-support/anthropic-server.js';

// The SSE parsing, through the real SDK: a recorded stream cut into arbitrary byte pieces (inside
// a line, an event name, a JSON string, a multi-byte character) gives the same events and final
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

// One provider for every case: its fetch answers with the pieces of the case being run.
const provider = anthropic({
  apiKey: 'sk-ant-test',
  baseURL: 'http://fuzz.test',
  fetch: async () => {
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
  },
});

const streams: Record<string, string> = {
  text: fixture('text'),
  thinking: fixture('thinking'),
  'tool call': fixture('tool-call'),
  'three tool calls': fixture('three-tool-calls'),
  'escapes in arguments': fixture('escapes'),
  'cache usage': fixture('cache-usage'),
  'tool call cut by max_tokens': fixture('tool-call-cut-by-max-tokens'),
  'multi-byte text':
    messageStart() + textBlock(0, ['Grüße, ', '世界 ', '🌍🚀', ' — ok']) + messageEnd('end_turn'),
};

/** Streams `pieces` through the provider and returns every event; fails if the stream does not end. */
async function run(pieces: Uint8Array[]): Promise<ModelEvent[]> {
  nextBody = pieces;
  const events: ModelEvent[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the stream did not end within 10 s')), 10_000);
  });
  const read = (async () => {
    for await (const event of provider.stream({
      model: 'claude-sonnet-4-6',
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

/** The bytes cut at the given offsets. */
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
  const terminals = events.filter((event) => event.type === 'done' || event.type === 'error');
  expect(terminals).toHaveLength(1);
  if (last?.type === 'error') {
    expect(ProviderError.isInstance(last.error)).toBe(true);
    expect([
      'network',
      'malformed',
      'server',
      'overloaded',
      'rate_limit',
      'invalid_request',
      'auth',
      'fatal',
    ]).toContain(last.error.kind);
    expect(last.error.message.length).toBeGreaterThan(10);
  }
  if (last?.type === 'done') {
    expect(last.message.role).toBe('assistant');
    expect(Array.isArray(last.message.content)).toBe(true);
  }
  return last as ModelEvent;
}

describe.each(Object.entries(streams))('the SSE of a recorded stream (%s)', (_, text) => {
  const bytes = encoder.encode(text);
  const offsets = fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 });

  it('cut into arbitrary byte pieces gives the same events and message as whole', async () => {
    const whole = await run([bytes]);
    expect(whole.at(-1)?.type).toBe('done');
    await fc.assert(
      fc.asyncProperty(offsets, async (points) => {
        expect(await run(cut(bytes, points))).toEqual(whole);
      }),
      settings(25, 1000),
    );
  });

  it('cut short at any byte ends with done or one clear error, and with an error before the last event', async () => {
    const lastEvent = text.lastIndexOf('event: ');
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: bytes.length - 1 }), offsets, async (end, points) => {
        const kept = bytes.subarray(0, end);
        const last = expectSettled(await run(cut(kept, points)));
        if (end < encoder.encode(text.slice(0, lastEvent)).length) expect(last.type).toBe('error');
      }),
      settings(25, 1000),
    );
  });

  it('with bytes inserted or overwritten anywhere, ends with done or one clear error', async () => {
    const damage = fc.record({
      at: fc.integer({ min: 0, max: bytes.length }),
      bytes: fc.uint8Array({ minLength: 1, maxLength: 12 }),
      overwrite: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(damage, { minLength: 1, maxLength: 4 }), offsets, async (damages, points) => {
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
        expectSettled(await run(cut(damaged, points)));
      }),
      settings(25, 1000),
    );
  });
});
