import { describe, expect, it } from 'vitest';
import { plainCopy } from './plain-copy.js';

const message = {
  role: 'assistant',
  content: [
    { type: 'text', text: 'Adding.' },
    { type: 'toolCall', id: 'call_1', name: 'add', input: { a: 1, b: [2, null, 'x'] } },
  ],
  stopReason: 'tool_use',
  usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 },
  note: undefined,
};

describe('plainCopy', () => {
  it('copies plain data deeply: equal to structuredClone, sharing nothing with the original', () => {
    const copy = plainCopy(message);
    expect(copy).toStrictEqual(structuredClone(message));
    expect(Object.hasOwn(copy, 'note')).toBe(true);
    copy.content[1] = { type: 'text', text: 'changed' };
    (copy.usage as { input: number }).input = 99;
    expect(message.content[1]).toMatchObject({ type: 'toolCall' });
    expect(message.usage.input).toBe(10);
    expect(plainCopy('text')).toBe('text');
    expect(plainCopy(null)).toBe(null);
    expect(plainCopy(12n)).toBe(12n);
  });

  it('hands values with anything but plain data inside to structuredClone, whatever the depth', () => {
    const at = new Date('2026-11-26T12:00:00Z');
    const copy = plainCopy({ events: [{ at, tags: new Map([['a', 1]]) }] });
    expect(copy.events[0]?.at).toBeInstanceOf(Date);
    expect(copy.events[0]?.at).not.toBe(at);
    expect(copy.events[0]?.at.getTime()).toBe(at.getTime());
    expect(copy.events[0]?.tags).toEqual(new Map([['a', 1]]));
    const list = [1, 2, 3];
    delete list[1];
    const holes = plainCopy({ list });
    expect(1 in holes.list).toBe(false);
    const keyed = plainCopy(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'));
    expect(Object.hasOwn(keyed, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(keyed)).toBe(Object.prototype);
    expect(plainCopy(new Uint8Array([1, 2]))).toEqual(new Uint8Array([1, 2]));
  });

  it('copies a cycle as structuredClone does, and throws its error for a function', () => {
    const cyclic: { name: string; self?: unknown } = { name: 'loop' };
    cyclic.self = cyclic;
    const copy = plainCopy(cyclic);
    expect(copy.self).toBe(copy);
    expect(copy).not.toBe(cyclic);
    expect(() => plainCopy({ nested: { run: () => 1 } })).toThrow(/could not be cloned/);
  });

  it('copies data nested deeper than its own limit through structuredClone, unchanged', () => {
    let deep: unknown = 'bottom';
    for (let level = 0; level < 100; level++) deep = { level, inner: deep };
    expect(plainCopy(deep)).toStrictEqual(deep);
  });
});
