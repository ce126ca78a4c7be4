// Round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes.
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

// Shared by every call: the function is synchronous, so no two calls use them at once.
// Words are signed 32-bit throughout (`| 0`), which the JIT keeps in integer registers;
// unsigned values above 2^31 would be doubles. Only the hex output reads them unsigned.
const encoder = new TextEncoder();
const words = new Int32Array(64);
const initialHash = new Int32Array([
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]);
const hash = new Int32Array(8);
const hexOfByte = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * SHA-256 of a string's UTF-8 bytes, as 64 hex digits. Pure and synchronous,
 * so core computes approval hashes the same way in every runtime without
 * `node:crypto` or the asynchronous Web Crypto API.
 */
export function sha256Hex(text: string): string {
  // The input is usually ASCII JSON: its bytes are its char codes, with no encoder call.
  // (On Node 20, `encode`, a DataView and `toString(16)` each cost more than a block's rounds.)
  const bytes = isAscii(text) ? undefined : encoder.encode(text);
  const length = bytes === undefined ? text.length : bytes.length;
  // Message, the 0x80 marker, zero padding, then the 64-bit length: a multiple of 64 bytes.
  const paddedLength = Math.ceil((length + 9) / 64) * 64;
  const padded = new Uint8Array(paddedLength);
  if (bytes === undefined)
    for (let index = 0; index < length; index++) padded[index] = text.charCodeAt(index);
  else padded.set(bytes);
  padded[length] = 0x80;
  // The length in bits as 64 bits: high word length × 8 / 2³², low word length × 8 mod 2³².
  writeWord(padded, paddedLength - 8, Math.floor(length / 0x20000000));
  writeWord(padded, paddedLength - 4, length << 3);

  hash.set(initialHash);
  for (let offset = 0; offset < paddedLength; offset += 64) {
    for (let index = 0, at = offset; index < 16; index++, at += 4)
      words[index] =
        ((padded[at] as number) << 24) |
        ((padded[at + 1] as number) << 16) |
        ((padded[at + 2] as number) << 8) |
        (padded[at + 3] as number);
    for (let index = 16; index < 64; index++) {
      const before15 = words[index - 15] as number;
      const before2 = words[index - 2] as number;
      const sigma0 = rotate(before15, 7) ^ rotate(before15, 18) ^ (before15 >>> 3);
      const sigma1 = rotate(before2, 17) ^ rotate(before2, 19) ^ (before2 >>> 10);
      words[index] = ((words[index - 16] as number) + sigma0 + (words[index - 7] as number) + sigma1) | 0;
    }
    let a = hash[0] as number;
    let b = hash[1] as number;
    let c = hash[2] as number;
    let d = hash[3] as number;
    let e = hash[4] as number;
    let f = hash[5] as number;
    let g = hash[6] as number;
    let h = hash[7] as number;
    for (let index = 0; index < 64; index++) {
      const sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25);
      const choice = (e & f) ^ (~e & g);
      const temp1 = (h + sum1 + choice + (K[index] as number) + (words[index] as number)) | 0;
      const sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22);
      const majority = (a & b) ^ (a & c) ^ (b & c);
      const temp2 = (sum0 + majority) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + temp1) | 0;
      d = c;
      c = b;
      b = a;
      a = (temp1 + temp2) | 0;
    }
    hash[0] = ((hash[0] as number) + a) | 0;
    hash[1] = ((hash[1] as number) + b) | 0;
    hash[2] = ((hash[2] as number) + c) | 0;
    hash[3] = ((hash[3] as number) + d) | 0;
    hash[4] = ((hash[4] as number) + e) | 0;
    hash[5] = ((hash[5] as number) + f) | 0;
    hash[6] = ((hash[6] as number) + g) | 0;
    hash[7] = ((hash[7] as number) + h) | 0;
  }
  let hex = '';
  for (const word of hash) {
    hex +=
      (hexOfByte[(word >>> 24) & 0xff] as string) +
      (hexOfByte[(word >>> 16) & 0xff] as string) +
      (hexOfByte[(word >>> 8) & 0xff] as string) +
      (hexOfByte[word & 0xff] as string);
  }
  return hex;
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > 0x7f) return false;
  return true;
}

/** Writes a 32-bit word big-endian at `at`. */
function writeWord(bytes: Uint8Array, at: number, word: number): void {
  bytes[at] = word >>> 24;
  bytes[at + 1] = word >>> 16;
  bytes[at + 2] = word >>> 8;
  bytes[at + 3] = word;
}

function rotate(value: number, bits: number): number {
  return (value >>> bits) | (value << (32 - bits));
}
