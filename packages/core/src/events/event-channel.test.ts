import { describe, expect, it } from 'vitest';
import type { AgentEvent } from './agent-event.js';
import { type EventDecoder, EventChannel } from './event-channel.js';

const event = (seq: number) => ({ type: 'turn_start', runId: 'r', turn: 1, seq }) as AgentEvent;

describe('EventChannel', () => {
  it('keeps events pushed before anyone reads, and delivers the rest as they come', async () => {
    const channel = new EventChannel();
    for (let seq = 0; seq < 3000; seq++) channel.push(event(seq));
    const seen: number[] = [];
    const reading = (async () => {
      for await (const item of channel) seen.push(item.seq);
    })();
    await new Promise((resolve) => setImmediate(resolve));
    channel.push(event(3000));
    channel.close();
    await reading;
    expect(seen).toEqual(Array.from({ length: 3001 }, (_, index) => index));
  });

  it('can be read once, and leaving the loop early stops delivery only', async () => {
    const channel = new EventChannel();
    channel.push(event(0));
    channel.push(event(1));
    for await (const _ of channel) break;
    expect(() => channel[Symbol.asyncIterator]()).toThrow(/iterated once/);
    channel.push(event(2));
  });

  it('keeps records and objects in one order across its growth and compaction, and makes each record when read', async () => {
    const built: number[] = [];
    const decoder: EventDecoder = {
      build: (kind, turn, seq, span, parent, extra, ref) => {
        built.push(seq);
        return {
          type: 'text_delta',
          runId: 'r',
          turn,
          seq,
          delta: `${kind}/${span}/${parent}/${extra}/${ref}`,
        };
      },
    };
    const channel = new EventChannel(decoder);
    // Past the plain array into the typed one, and past a compaction, with an object every seventh entry.
    const total = 5000;
    const push = (seq: number) => {
      if (seq % 7 === 0) channel.push(event(seq));
      else channel.record(7, 1, seq, seq + 1, seq + 2, seq + 3, `r${seq}`);
    };
    for (let seq = 0; seq < 3000; seq++) push(seq);
    const seen: AgentEvent[] = [];
    const reading = (async () => {
      for await (const item of channel) {
        seen.push(item);
        // Read slowly at times, so new records arrive while earlier ones wait.
        if (item.seq % 500 === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    for (let seq = 3000; seq < total; seq++) {
      if (channel.waiting) channel.push(event(seq));
      else push(seq);
      if (seq % 300 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    channel.close();
    await reading;
    expect(seen.map((item) => item.seq)).toEqual(Array.from({ length: total }, (_, index) => index));
    for (const item of seen) {
      if (item.type === 'turn_start') continue;
      const seq = item.seq;
      expect(item).toEqual({
        type: 'text_delta',
        runId: 'r',
        turn: 1,
        seq,
        delta: `7/${seq + 1}/${seq + 2}/${seq + 3}/r${seq}`,
      });
    }
    expect(built.length).toBeGreaterThan(0);
  });

  it('gives back every field of every record exactly, for steps as a run makes them and for any other values', async () => {
    type Fields = [number, number, number, number, number, number];
    const decoder: EventDecoder = {
      build: (kind, turn, seq, span, parent, extra, ref) =>
        ({
          type: 'text_delta',
          runId: 'r',
          turn,
          seq,
          delta: JSON.stringify([kind, turn, seq, span, parent, extra, ref]),
        }) as AgentEvent,
    };
    const channel = new EventChannel(decoder);
    let random = 7;
    const next = (below: number) => {
      random = (Math.imul(random, 1103515245) + 12345) >>> 0;
      return (random >>> 8) % below;
    };
    const expected: unknown[] = [];
    let seq = 0;
    let spans = 0;
    // Steps as a run makes them (a turn span, a model span and tool spans under it), then
    // values no step makes: seq jumps, new turns, far spans, large or negative extras, parents above the span.
    for (let turn = 1; turn <= 1500; turn++) {
      const turnSpan = ++spans;
      const step: Fields[] = [[1, turn, seq++, turnSpan, 0, 0]];
      const modelSpan = ++spans;
      step.push([3, turn, seq++, modelSpan, turnSpan, 1 + next(5)], [4, turn, seq++, modelSpan, turnSpan, 0]);
      const calls = next(3) === 0 ? 1 + next(12) : 1;
      const toolSpans = Array.from({ length: calls }, () => ++spans);
      for (const span of toolSpans) step.push([5, turn, seq++, span, turnSpan, 0]);
      for (const span of toolSpans) step.push([6, turn, seq++, span, turnSpan, 0]);
      step.push([2, turn, seq++, turnSpan, 0, 0]);
      if (turn % 97 === 0) step.push([7, turn, seq + 50, spans + 200, spans + 300, -4]);
      if (turn % 89 === 0) spans += 40 + next(100);
      if (turn % 83 === 0) step.push([8, turn + 1000, seq++, next(2 ** 20), next(2 ** 20), 2 ** 30]);
      for (const fields of step) {
        if (next(50) === 0) {
          channel.push(event(fields[2]));
          expected.push({ type: 'turn_start', seq: fields[2] });
        }
        const ref = next(4) === 0 ? undefined : `r${expected.length}`;
        channel.record(...fields, ref);
        expected.push([...fields, ref]);
      }
    }
    channel.close();
    const read: unknown[] = [];
    for await (const item of channel) {
      read.push(
        item.type === 'text_delta'
          ? JSON.parse(item.delta).map((value: unknown) => value ?? undefined)
          : { type: item.type, seq: item.seq },
      );
      // Compact now and then, while records are still to be read.
      if (read.length % 700 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    expect(read).toEqual(expected);
  });

  it('a reader that leaves early gets the record it read made; later ones are taken and never made', async () => {
    let built = 0;
    const channel = new EventChannel({
      build: (_kind, _turn, seq) => {
        built++;
        return event(seq);
      },
    });
    channel.record(1, 1, 0, 1, 0, 0, undefined);
    channel.record(1, 1, 1, 2, 0, 0, undefined);
    const read: number[] = [];
    for await (const item of channel) {
      read.push(item.seq);
      break;
    }
    expect(() => channel.record(1, 1, 2, 3, 0, 0, undefined)).not.toThrow();
    channel.push(event(3));
    channel.close();
    expect(read).toEqual([0]);
    expect(built).toBe(1);
  });
});
