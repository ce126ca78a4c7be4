import { describe, expect, it } from 'vitest';
import type { ToolCallBlock } from '../messages/messages.js';
import { PendingCalls } from './pending-calls.js';

function call(id: string, name = 'tool'): ToolCallBlock {
  return { type: 'toolCall', id, name, input: {} };
}

describe('the pending calls of a run', () => {
  it('keeps calls in the order they were made, whichever is answered first', () => {
    const pending = new PendingCalls();
    for (const id of ['a', 'b', 'c', 'd']) pending.add(call(id));
    expect(pending.delete('b')).toBe(true);
    expect(pending.delete('d')).toBe(true);
    expect(pending.list().map((block) => block.id)).toEqual(['a', 'c']);
    expect(pending.size).toBe(2);
    expect(pending.has('a')).toBe(true);
    expect(pending.has('b')).toBe(false);
  });

  it('refuses to delete a call that is not pending', () => {
    const pending = new PendingCalls();
    pending.add(call('a'));
    expect(pending.delete('z')).toBe(false);
    expect(pending.delete('a')).toBe(true);
    expect(pending.delete('a')).toBe(false);
    expect(pending.size).toBe(0);
  });

  it('replaces a call added again under the same id, in its place', () => {
    const pending = new PendingCalls();
    pending.add(call('a', 'first'));
    pending.add(call('b'));
    pending.add(call('a', 'second'));
    expect(pending.list().map((block) => [block.id, block.name])).toEqual([
      ['a', 'second'],
      ['b', 'tool'],
    ]);
  });

  it('lists a copy: answering calls while going through the list skips none', () => {
    const pending = new PendingCalls();
    for (const id of ['a', 'b', 'c']) pending.add(call(id));
    const seen: string[] = [];
    for (const block of pending.list()) {
      seen.push(block.id);
      pending.delete(block.id);
    }
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(pending.size).toBe(0);
  });
});
