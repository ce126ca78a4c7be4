import { describe, expect, it } from 'vitest';
import { randomRunId } from './run-id.js';

describe('run ids', () => {
  it('are version 4 UUIDs in lowercase, and differ', () => {
    const ids = Array.from({ length: 2_000 }, () => randomRunId());
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('use every hex digit in every free position', () => {
    const ids = Array.from({ length: 2_000 }, () => randomRunId());
    for (const position of [0, 7, 9, 12, 15, 20, 24, 35]) {
      expect(new Set(ids.map((id) => id[position])).size).toBe(16);
    }
  });
});
