import { afterEach, describe, expect, it, vi } from 'vitest';
import { isoNow } from './iso-now.js';

describe('isoNow', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives what new Date().toISOString() gives, at every millisecond of a second and across seconds', () => {
    vi.useFakeTimers();
    for (const start of [Date.UTC(2026, 10, 26, 23, 59, 58), 0, -1500, Date.UTC(10000, 0, 1)]) {
      for (let offset = 0; offset < 2500; offset += 7) {
        vi.setSystemTime(start + offset);
        expect(isoNow()).toBe(new Date().toISOString());
      }
    }
  });
});
