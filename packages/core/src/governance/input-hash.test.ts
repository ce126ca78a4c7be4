import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.js';
import { inputHash } from './input-hash.js';
import { sha256Hex } from './sha256.js';

describe('inputHash', () => {
  it('computes SHA-256 as the standard test vectors give it', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(sha256Hex('a'.repeat(1000))).toBe(
      '41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3',
    );
    expect(sha256Hex('é✓')).toBe(sha256Hex('\u00e9\u2713'));
  });

  it('gives what node:crypto gives for every length around the block edges, ASCII or not, lone surrogates too', () => {
    const pieces = ['a', '{', '"', '~', '\u007f', 'é', '✓', '😀', '\ud800', '\u0000'];
    for (let length = 0; length <= 200; length++) {
      const ascii = Array.from({ length }, (_, index) => pieces[index % 5]).join('');
      const mixed = Array.from({ length }, (_, index) => pieces[(index * 7 + length) % pieces.length]).join(
        '',
      );
      for (const text of [ascii, mixed]) {
        // TextEncoder writes a lone surrogate as U+FFFD, as node:crypto's UTF-8 does.
        expect(sha256Hex(text), JSON.stringify(text)).toBe(
          createHash('sha256').update(text, 'utf8').digest('hex'),
        );
      }
    }
  });

  it('is the same for equal inputs in any key order and differs for other input', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(inputHash({ path: 'a.txt', content: 'x' })).toBe(inputHash({ content: 'x', path: 'a.txt' }));
    expect(inputHash({ path: 'a.txt' })).not.toBe(inputHash({ path: 'b.txt' }));
    expect(inputHash({ path: 'a.txt' })).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
