import { describe, expect, expectTypeOf, it } from 'vitest';
import { type AgentEvent, isCustomEvent } from '../index.js';

describe('isCustomEvent', () => {
  it('narrows to the custom event of one name with the documented data type', () => {
    const events: AgentEvent[] = [
      { type: 'custom', name: 'progress', data: { done: 3 }, runId: 'r', turn: 1, seq: 0 },
      { type: 'custom', name: 'other', data: 'x', runId: 'r', turn: 1, seq: 1 },
      { type: 'turn_start', runId: 'r', turn: 1, seq: 2, spanId: 'a', parentSpanId: 'b' },
    ];
    const done: number[] = [];
    for (const event of events) {
      if (isCustomEvent<'progress', { done: number }>(event, 'progress')) {
        expectTypeOf(event.data).toEqualTypeOf<{ done: number }>();
        done.push(event.data.done);
      }
    }
    expect(done).toEqual([3]);
  });
});
