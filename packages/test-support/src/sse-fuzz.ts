import { isProviderErrorKind, type ModelEvent, type Provider, ProviderError } from '@agent-core/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertySettings } from './soak.js';

/**
 * A `fetch` for a provider under fuzzing: it answers each request with the
 * byte pieces last given to `feed`, each piece its own read of the body, so
 * they reach the SDK's parser exactly as cut.
 */
export function piecesFetch(): { fetch: () => Promise<Response>; feed(pieces: Uint8Array[]): void } {
  let next: Uint8Array[] = [];
  return {
    feed(pieces) {
      next = pieces;
    },
    async fetch() {
      const pieces = next;
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
  };
}

/** A recorded stream to fuzz: its SSE text, the provider that reads it, and where the model had finished. */
export interface FuzzedStream {
  text: string;
  provider: Provider;
  model: string;
  /** The character offset of `text` before which a stream cut short must end with an error. */
  finishedFrom: number;
}

/** What `describeSseFuzz` needs besides the streams. */
export interface SseFuzzOptions {
  /** Gives the pieces to the providers' fetch (`piecesFetch().feed`). */
  feed(pieces: Uint8Array[]): void;
  /** Property runs in the default run (the soak run makes 1,000). */
  runs: number;
  /** Events as compared between a whole and a cut stream (default: as they are). */
  comparable?: (events: readonly ModelEvent[]) => unknown;
}

const encoder = new TextEncoder();

/** The bytes cut at the given offsets. */
export function cutBytes(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
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
    expect(isProviderErrorKind(last.error.kind)).toBe(true);
    expect(last.error.message.length).toBeGreaterThan(10);
  }
  if (last?.type === 'done') {
    expect(last.message.role).toBe('assistant');
    expect(Array.isArray(last.message.content)).toBe(true);
  }
  return last as ModelEvent;
}

/** The bytes with `damages` inserted or written over them. */
function damaged(
  bytes: Uint8Array,
  damages: { at: number; bytes: Uint8Array; overwrite: boolean }[],
): Uint8Array {
  let result = bytes;
  for (const { at, bytes: inserted, overwrite } of damages) {
    const position = Math.min(at, result.length);
    const rest = result.subarray(Math.min(result.length, position + (overwrite ? inserted.length : 0)));
    const next = new Uint8Array(position + inserted.length + rest.length);
    next.set(result.subarray(0, position));
    next.set(inserted, position);
    next.set(rest, position + inserted.length);
    result = next;
  }
  return result;
}

/**
 * The SSE parsing of a provider under fuzzing, through its real SDK, for each
 * recorded stream: cut into arbitrary byte pieces it gives the same events as
 * whole; cut short at any byte it ends with `done` or one clear `error` (an
 * error when cut before the model finished); with bytes inserted or written
 * over anywhere it still ends so, never hanging, throwing or rejecting.
 */
export function describeSseFuzz(streams: Record<string, FuzzedStream>, options: SseFuzzOptions): void {
  const comparable = options.comparable ?? ((events: readonly ModelEvent[]) => events);
  const settings = propertySettings(options.runs, 1000);
  describe.each(Object.entries(streams))('the SSE of a recorded stream (%s)', (_, stream) => {
    const bytes = encoder.encode(stream.text);
    const offsets = fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 40 });
    const run = async (pieces: Uint8Array[]): Promise<ModelEvent[]> => {
      options.feed(pieces);
      const events: ModelEvent[] = [];
      let timer: ReturnType<typeof setTimeout> | undefined;
      const hang = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('the stream did not end within 10 s')), 10_000);
      });
      const read = (async () => {
        for await (const event of stream.provider.stream({
          model: stream.model,
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
    };

    it('cut into arbitrary byte pieces gives the same events and message as whole', async () => {
      const whole = await run([bytes]);
      expectSettled(whole);
      await fc.assert(
        fc.asyncProperty(offsets, async (points) => {
          expect(comparable(await run(cutBytes(bytes, points)))).toEqual(comparable(whole));
        }),
        settings,
      );
    });

    it('cut short at any byte ends with done or one clear error, and with an error before the model finished', async () => {
      const unfinishedBefore = encoder.encode(stream.text.slice(0, stream.finishedFrom)).length;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: bytes.length - 1 }), offsets, async (end, points) => {
          const last = expectSettled(await run(cutBytes(bytes.subarray(0, end), points)));
          if (end < unfinishedBefore) expect(last.type).toBe('error');
        }),
        settings,
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
            expectSettled(await run(cutBytes(damaged(bytes, damages), points)));
          },
        ),
        settings,
      );
    });
  });
}
