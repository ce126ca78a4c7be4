import { describe, expect, it } from 'vitest';
import { capToolOutput } from './cap-tool-output.js';

describe('capToolOutput', () => {
  it('keeps output within the limit as it is, the same object', () => {
    const blocks = [{ type: 'text' as const, text: 'abc' }];
    expect(capToolOutput('abc', 3)).toBe('abc');
    expect(capToolOutput(blocks, 3)).toBe(blocks);
  });

  it('cuts text blocks together, keeps images, and ends with the note', () => {
    const image = { type: 'image' as const, data: 'AAAA', mimeType: 'image/png' };
    const capped = capToolOutput(
      [{ type: 'text', text: 'abcd' }, image, { type: 'text', text: 'efgh' }, { type: 'text', text: 'ijkl' }],
      6,
    );
    expect(capped).toEqual([
      { type: 'text', text: 'abcd' },
      image,
      { type: 'text', text: 'ef' },
      { type: 'text', text: expect.stringMatching(/returned 12 characters; only the first 6 are shown/) },
    ]);
  });
});
