import { describe, expect, it } from 'vitest';
import type { AgentEvent } from './agent-event.js';
import { EventChannel } from './event-channel.js';

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
});
