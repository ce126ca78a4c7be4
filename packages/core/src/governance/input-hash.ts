import { canonicalJson } from './canonical-json.js';
import { sha256Hex } from './sha256.js';

/**
 * The hash an approval is bound to: SHA-256 of the canonical JSON (sorted
 * keys) of a tool call's input, prefixed `sha256:`. Equal inputs give equal
 * hashes whatever their key order.
 */
export function inputHash(input: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(input))}`;
}
