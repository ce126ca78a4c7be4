import { describe, expect, it } from 'vitest';
import { comparePaired, median, quantile } from './measure.js';

describe('median and quantile', () => {
  it('take the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('give the nearest-rank quantile', () => {
    const values = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(quantile(values, 0.5)).toBe(50);
    expect(quantile(values, 0.99)).toBe(99);
    expect(quantile([7], 0.99)).toBe(7);
  });
});

describe('comparePaired', () => {
  it('alternates the contender and the floor, after warming both up', async () => {
    const order: string[] = [];
    const result = await comparePaired(
      async () => {
        order.push('contender');
      },
      async () => {
        order.push('floor');
      },
      { budgetMs: 1000, minSamples: 3, maxSamples: 3, minSampleMs: 0 },
    );
    expect(result.samples).toBe(3);
    // The measured part alternates strictly.
    expect(order.slice(-6)).toEqual(['contender', 'floor', 'contender', 'floor', 'contender', 'floor']);
  });
});
