import type { Provider } from '@agent-core/core';
import type { WireReply } from '@agent-core/core/testing';
import type { ServerReply } from './fault-server.js';

/** A fault a server or the network can inject into one streamed reply. */
export type FaultKind = 'drop' | 'stall' | 'http_5xx' | 'overloaded' | 'malformed';

/** Every fault kind, in the order reports list them. */
export const faultKinds: readonly FaultKind[] = ['drop', 'stall', 'http_5xx', 'overloaded', 'malformed'];

/**
 * One provider API as it goes over the wire: its replies as SSE events and
 * the faults its servers really send, in their own words.
 */
export interface WireDialect {
  name: 'anthropic' | 'openai-chat' | 'openai-responses';
  /** A model the provider knows. */
  model: string;
  /** A provider on the real SDK talking to `origin`. */
  provider(origin: string): Provider;
  /** A reply with text, then a call of `calculator` with `{ expression: '15*3' }` under `id`. */
  toolReply(id: string): string[];
  /** A reply with text only. */
  textReply(text: string): string[];
  /** The answer to a fault before any response header. */
  beforeHeaders(kind: FaultKind): ServerReply;
  /** The event a server sends for `http_5xx`, `overloaded` or `malformed` once the stream has begun. */
  inStream(kind: 'http_5xx' | 'overloaded' | 'malformed', sequence: number): string;
  /** True when a request body holds a tool result: the answer to it is text. */
  hasToolResult(body: unknown): boolean;
  /**
   * True when the reply `events` is whole for the client once `point` of them
   * arrived before a fault of `kind`: what comes after cannot cost the answer.
   */
  finishedBefore(kind: FaultKind, point: number, events: readonly string[]): boolean;
  /** What the API would refuse in a request body (see `wire-checks.ts`). */
  requestProblems(body: unknown): string[];
}

/** The arguments of the calculator call every tool-call reply makes, in two pieces. */
export const calculatorArguments = ['{"expression":', ' "15*3"}'];

const usage = { input: 20, output: 12, cacheRead: 0, cacheWrite: 0 };

/** The reply every dialect writes for a tool call: text in two pieces, then `calculator` with `{ expression: '15*3' }` under `id`. */
export function toolWireReply(model: string, id: string): WireReply {
  return {
    model,
    parts: [
      { type: 'text', pieces: ['Let me ', 'compute.'] },
      { type: 'toolCall', id, name: 'calculator', pieces: calculatorArguments },
    ],
    stopReason: 'tool_use',
    usage,
  };
}

/** The reply every dialect writes for a text answer: the text in one piece. */
export function textWireReply(model: string, text: string): WireReply {
  return { model, parts: [{ type: 'text', pieces: [text] }], stopReason: 'end_turn', usage };
}

/** One SSE event: an optional `event:` line and a JSON `data:` line. */
export function sse(event: string | undefined, data: unknown): string {
  return `${event === undefined ? '' : `event: ${event}\n`}data: ${JSON.stringify(data)}\n\n`;
}

/** A whole HTTP answer with a JSON body. */
export function json(status: number, body: unknown): ServerReply {
  return { type: 'http', status, contentType: 'application/json', body: JSON.stringify(body) };
}

/** What a proxy in front of the API answers when it has nothing better: a 200 page that is not a stream. */
const proxyPage: ServerReply = {
  type: 'http',
  status: 200,
  contentType: 'text/html',
  body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
};

/** The answer to a fault before any response header; `errors` holds the API's own 5xx and overloaded answers. */
export function beforeHeaders(
  kind: FaultKind,
  errors: Record<'http_5xx' | 'overloaded', ServerReply>,
): ServerReply {
  if (kind === 'drop') return { type: 'drop' };
  if (kind === 'stall') return { type: 'hang' };
  if (kind === 'malformed') return proxyPage;
  return errors[kind];
}
