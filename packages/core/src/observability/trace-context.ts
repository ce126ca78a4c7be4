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

// Char codes of the 16 hex digits: an id is made by one String.fromCharCode, a single flat
// string, instead of a chain of concatenations (ids are made three times per step).
const hexCodes = new Uint8Array(16);
for (let digit = 0; digit < 16; digit++) hexCodes[digit] = digit.toString(16).charCodeAt(0);

// Random bytes are drawn in batches: one getRandomValues call (a few microseconds) serves 512 span ids.
const pool = new Uint8Array(4096);
let poolOffset = pool.length;

/** Takes `bytes` random bytes from the pool, refilling it when it runs short; returns their offset. */
function draw(bytes: number): number {
  if (poolOffset + bytes > pool.length) {
    globalThis.crypto.getRandomValues(pool);
    poolOffset = 0;
  }
  const offset = poolOffset;
  poolOffset += bytes;
  return offset;
}

function code(offset: number, high: boolean): number {
  const value = pool[offset] as number;
  return hexCodes[high ? value >> 4 : value & 15] as number;
}

function randomHex16(): string {
  for (;;) {
    const at = draw(8);
    // An all-zero id is invalid in W3C trace context; draw again.
    let any = 0;
    for (let index = at; index < at + 8; index++) any |= pool[index] as number;
    if (any === 0) continue;
    return String.fromCharCode(
      code(at, true),
      code(at, false),
      code(at + 1, true),
      code(at + 1, false),
      code(at + 2, true),
      code(at + 2, false),
      code(at + 3, true),
      code(at + 3, false),
      code(at + 4, true),
      code(at + 4, false),
      code(at + 5, true),
      code(at + 5, false),
      code(at + 6, true),
      code(at + 6, false),
      code(at + 7, true),
      code(at + 7, false),
    );
  }
}

/** A random 32-hex W3C trace id (never all zeros), from `crypto.getRandomValues`. */
export function randomTraceId(): string {
  // Two halves, each never all zeros, so neither is the id.
  return randomHex16() + randomHex16();
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
