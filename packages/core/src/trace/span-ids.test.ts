import { describe, expect, it } from 'vitest';
import { SpanIds } from './span-ids.js';

describe('SpanIds', () => {
  it('gives each span of a run its own W3C span id, the same each time it is asked, and the root for 0', () => {
    const spans = new SpanIds('00f067aa0ba902b7');
    const ids = new Map<number, string>();
    for (let index = 0; index < 5_000; index++) {
      const span = spans.open();
      const id = spans.text(span);
      expect(id).toMatch(/^[0-9a-f]{16}$/);
      expect(id).not.toBe('0000000000000000');
      ids.set(span, id);
    }
    expect(new Set(ids.values()).size).toBe(5_000);
    // Read again out of order, past the cache: the same ids.
    for (const span of [17, 3, 4_999, 1, 4_096, 3]) expect(spans.text(span)).toBe(ids.get(span));
    expect(spans.text(0)).toBe('00f067aa0ba902b7');
  });

  it('two runs number their spans alike but give them different ids', () => {
    const first = new SpanIds('00f067aa0ba902b7');
    const second = new SpanIds('00f067aa0ba902b7');
    const a = Array.from({ length: 50 }, () => first.text(first.open()));
    const b = Array.from({ length: 50 }, () => second.text(second.open()));
    expect(a.filter((id) => b.includes(id))).toEqual([]);
  });
});
