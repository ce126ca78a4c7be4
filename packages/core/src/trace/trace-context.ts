import { ConfigError } from '../errors/config-error.js';

/**
 * A W3C trace context: a 32-hex trace id and the 16-hex id of a span in it.
 * Plain JSON, so a session can store it and another process can continue or link to it.
 */
export interface TraceContext {
  traceId: string;
  spanId: string;
  /** The W3C `sampled` flag; default true. */
  sampled?: boolean;
}

// Random bytes are drawn in batches: one getRandomValues call (a few microseconds, as much
// as making the ids themselves) serves 512 span ids. Three ids are made per step.
const pool = new Uint8Array(4096);
let poolOffset = pool.length;
/** Character codes of the hex digits, for ids made with one `String.fromCharCode`. */
export const hexDigitCodes = Uint8Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));

/** A random unsigned 32-bit integer from the pool. */
export function randomUint32(): number {
  if (poolOffset + 4 > pool.length) {
    globalThis.crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  const at = poolOffset;
  poolOffset += 4;
  return (
    (((pool[at] as number) << 24) |
      ((pool[at + 1] as number) << 16) |
      ((pool[at + 2] as number) << 8) |
      (pool[at + 3] as number)) >>>
    0
  );
}

/**
 * The 16 hex digits of two 32-bit words, high word first. One
 * `String.fromCharCode` call makes one flat string: about half the time of
 * concatenating byte pairs, and one object where concatenation leaves
 * several, which matters when events keep their ids for the whole run.
 */
export function hexOfWords(high: number, low: number): string {
  const x = hexDigitCodes;
  return String.fromCharCode(
    x[(high >>> 28) & 15] as number,
    x[(high >>> 24) & 15] as number,
    x[(high >>> 20) & 15] as number,
    x[(high >>> 16) & 15] as number,
    x[(high >>> 12) & 15] as number,
    x[(high >>> 8) & 15] as number,
    x[(high >>> 4) & 15] as number,
    x[high & 15] as number,
    x[(low >>> 28) & 15] as number,
    x[(low >>> 24) & 15] as number,
    x[(low >>> 20) & 15] as number,
    x[(low >>> 16) & 15] as number,
    x[(low >>> 12) & 15] as number,
    x[(low >>> 8) & 15] as number,
    x[(low >>> 4) & 15] as number,
    x[low & 15] as number,
  );
}

/** 16 random hex digits, never all zeros (invalid in W3C trace context). */
function randomHex16(): string {
  for (;;) {
    const high = randomUint32();
    const low = randomUint32();
    if ((high | low) !== 0) return hexOfWords(high, low);
  }
}

/** The character codes of a trace id, filled in place: one flat string is made from them. */
const traceIdCodes: number[] = new Array<number>(32).fill(0);

/** A random 32-hex W3C trace id (never all zeros), from `crypto.getRandomValues`. */
export function randomTraceId(): string {
  // Two non-zero halves: never all zeros. One flat string, not two joined: a joined pair is
  // three strings, and every event and result of the run keeps the id.
  const codes = traceIdCodes;
  for (let half = 0; half < 2; half++) {
    let high = 0;
    let low = 0;
    while ((high | low) === 0) {
      high = randomUint32();
      low = randomUint32();
    }
    const at = half * 16;
    for (let digit = 0; digit < 8; digit++) {
      codes[at + digit] = hexDigitCodes[(high >>> (28 - digit * 4)) & 15] as number;
      codes[at + 8 + digit] = hexDigitCodes[(low >>> (28 - digit * 4)) & 15] as number;
    }
  }
  return String.fromCharCode.apply(null, codes);
}

/** A random 16-hex W3C span id (never all zeros), from `crypto.getRandomValues`. */
export function randomSpanId(): string {
  return randomHex16();
}

const traceparentPattern = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const traceIdPattern = /^[0-9a-f]{32}$/;
const spanIdPattern = /^[0-9a-f]{16}$/;

/**
 * Parses a W3C `traceparent` header value (`00-<trace id>-<span id>-<flags>`).
 * Returns undefined for anything invalid (version `ff`, all-zero ids, wrong
 * lengths or case), as the W3C spec asks receivers to ignore such a header.
 */
export function parseTraceparent(header: string): TraceContext | undefined {
  const match = traceparentPattern.exec(header.trim());
  if (match === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string | undefined,
  ];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (!isTraceId(traceId) || !isSpanId(spanId)) return undefined;
  return { traceId, spanId, sampled: (Number.parseInt(flags, 16) & 1) === 1 };
}

/** The W3C `traceparent` header value for a trace context. */
export function formatTraceparent(context: TraceContext): string {
  return `00-${context.traceId}-${context.spanId}-${context.sampled === false ? '00' : '01'}`;
}

/** True for a valid W3C trace id: 32 lowercase hex digits, not all zeros. */
export function isTraceId(value: unknown): value is string {
  return typeof value === 'string' && traceIdPattern.test(value) && value !== '0'.repeat(32);
}

/** True for a valid W3C span id: 16 lowercase hex digits, not all zeros. */
export function isSpanId(value: unknown): value is string {
  return typeof value === 'string' && spanIdPattern.test(value) && value !== '0'.repeat(16);
}

/**
 * The parent trace context a prompt asked to join, checked: `trace` wins over
 * `traceparent`. Throws `ConfigError` for a malformed one, so a run never
 * silently starts a trace of its own when the caller meant to join another.
 */
export function resolveParentTrace(options: {
  trace?: TraceContext;
  traceparent?: string;
}): TraceContext | undefined {
  const { trace, traceparent } = options;
  if (trace !== undefined) {
    if (!isTraceId(trace.traceId) || !isSpanId(trace.spanId)) {
      throw new ConfigError(
        `prompt option trace needs a 32-hex traceId and a 16-hex spanId (lowercase, not all zeros), got ${JSON.stringify(trace)}.`,
      );
    }
    return trace;
  }
  if (traceparent === undefined) return undefined;
  const parsed = parseTraceparent(traceparent);
  if (parsed === undefined) {
    throw new ConfigError(
      `prompt option traceparent is not a valid W3C traceparent ('00-<32 hex>-<16 hex>-<2 hex>'): ${JSON.stringify(traceparent)}. Check it with parseTraceparent() first to ignore bad headers.`,
    );
  }
  return parsed;
}
