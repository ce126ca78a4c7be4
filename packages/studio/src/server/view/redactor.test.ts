import { describe, expect, it } from 'vitest';
import { Redactor, utf8Length } from './redactor.js';

describe('Redactor', () => {
  it('cuts a 20 MB output to its first part and says its whole size', () => {
    const output = 'é'.repeat(10_000_000);
    const cut = new Redactor().cut(output, 16_000);
    expect(cut).toEqual({ text: 'é'.repeat(16_000), size: 20_000_000, cut: true });
  });

  it('removes a key that straddles the cut, not a part of it', () => {
    const text = `${'x'.repeat(95)} sk-ant-api03-abcdefghijklmnop`;
    const cut = new Redactor().cut(text, 105);
    expect(cut.text).not.toContain('sk-ant-api03');
    expect(cut.text).toContain('[REDACTED]'.slice(0, 5));
  });

  it('removes the exact values the app names', () => {
    expect(new Redactor(['my-own-secret-1']).text('token my-own-secret-1 here')).toBe(
      'token [REDACTED] here',
    );
  });

  it('measures UTF-8 without encoding', () => {
    expect(utf8Length('aé€😀')).toBe(1 + 2 + 3 + 4);
  });
});
