/** Token counts as a backend reports them for one reply. */
export interface WireUsage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** One part of a scripted reply, with the pieces its deltas carry. */
export type WirePart =
  | { type: 'text'; pieces: string[] }
  | { type: 'thinking'; pieces: string[]; signature: string }
  /** A tool call; `pieces` split its JSON arguments where a stream may split them. */
  | { type: 'toolCall'; id: string; name: string; pieces: string[] };

/** A reply the provider kit scripts, for the wire to write in the backend's format. */
export interface WireReply {
  model: string;
  parts: WirePart[];
  stopReason: 'end_turn' | 'tool_use' | 'max_tokens';
  usage: WireUsage;
}

/** An HTTP response as the backend would send it: status, headers and the body in chunks. */
export interface WireResponse {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** The body, one chunk per delta for a stream (the kit cuts or stalls streams between chunks). */
  chunks: string[];
}

/**
 * A backend's wire format, as the author of a provider writes it for the
 * provider kit: the streamed response that carries a scripted reply, and the
 * error responses. The kit serves them to the provider and checks what it
 * makes of them.
 */
export interface ProviderWire {
  /** The streamed response carrying `reply`: one chunk per delta (text piece, argument piece...). */
  stream(reply: WireReply): WireResponse;
  /**
   * The error response for HTTP `status` saying `message`. With `overflow`,
   * the backend's own way of saying the request is longer than the model's
   * context window (its message or error code).
   */
  error(status: number, message: string, options: { overflow: boolean }): WireResponse;
}

/**
 * What the provider kit scripts for one call: a whole reply; an HTTP error
 * (with `overflow`, a request longer than the context window; with
 * `retryAfter`, that header); a reply whose stream is lost halfway (`cut`) or
 * goes silent halfway (`stall`).
 */
export type KitAnswer =
  | { type: 'reply'; reply: WireReply }
  | { type: 'status'; status: number; message: string; overflow: boolean; retryAfter?: string }
  | { type: 'cut'; reply: WireReply }
  | { type: 'stall'; reply: WireReply };

/**
 * What the provider under test is made for, for one call: the base URL and
 * `fetch` that reach the kit's backend (which answers in the `wire` format),
 * and the answer scripted for the call, for a stub that makes its provider
 * behave so without a backend (a scripted or in-process provider).
 */
export interface WireEndpoint {
  baseURL: string;
  fetch: typeof globalThis.fetch;
  answer: KitAnswer;
}

/** Serves a handler over real HTTP (a local server on 127.0.0.1, say), for the kit's `serve` option. */
export type WireServe = (
  handler: (request: Request) => Promise<Response>,
) => Promise<{ baseURL: string; close(): Promise<void> }>;
