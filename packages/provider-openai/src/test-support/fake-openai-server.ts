import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { responsesInputProblem } from './responses-input-check.js';

/** One scripted answer of the fake server. */
export interface ScriptedReply {
  /** HTTP status; 200 by default. */
  status?: number;
  headers?: Record<string, string>;
  /** A JSON body (error bodies, non-stream answers). */
  json?: unknown;
  /** Raw SSE events, each written as its own chunk (include the trailing blank line). */
  events?: readonly string[];
  /** After the events, keep the connection open until the client closes it. */
  hang?: boolean;
  /** After the events, destroy the socket (a connection lost mid-stream). */
  drop?: boolean;
}

/** A request as the fake server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary request fields
  body: any;
}

/**
 * A local HTTP server that answers like OpenAI (or a compatible server) from a script.
 * Requests to a Responses endpoint whose `input` the strictest real server would refuse
 * (an item without its `type`, an assistant message whose content is not `output_text`
 * parts) get that server's HTTP 400 and use up no scripted reply.
 */
export interface FakeOpenAIServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Queues replies, answered in order; a request with none queued gets a 500. */
  reply(...replies: ScriptedReply[]): void;
  /** Answers every request that finds no reply queued from the request itself (undefined: stop). */
  replyWith(answer: ((request: RecordedRequest) => ScriptedReply) | undefined): void;
  /** How many responses the client closed before the server ended them. */
  readonly clientClosed: number;
  /** Resolves when the client has closed a response the server still held open. */
  waitForClientClose(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a fake server on 127.0.0.1 on a free port. */
export async function startFakeOpenAIServer(): Promise<FakeOpenAIServer> {
  const requests: RecordedRequest[] = [];
  const queue: ScriptedReply[] = [];
  let answerer: ((request: RecordedRequest) => ScriptedReply) | undefined;
  let clientClosed = 0;
  let closeWaiters: (() => void)[] = [];

  const answer = async (reply: ScriptedReply, response: ServerResponse) => {
    let finished = false;
    response.on('close', () => {
      if (finished) return;
      clientClosed += 1;
      for (const resolve of closeWaiters) resolve();
      closeWaiters = [];
    });
    if (reply.events === undefined) {
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      finished = true;
      response.end(JSON.stringify(reply.json ?? {}));
      return;
    }
    response.writeHead(reply.status ?? 200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      ...reply.headers,
    });
    for (const event of reply.events) {
      if (response.destroyed) return;
      response.write(event);
      // Let each event reach the client as its own chunk.
      await new Promise((resolve) => setImmediate(resolve));
    }
    if (reply.hang === true) return;
    if (reply.drop === true) {
      finished = true;
      response.socket?.destroy();
      return;
    }
    finished = true;
    response.end();
  };

  const server = createServer((request, response) => {
    const pieces: Buffer[] = [];
    request.on('data', (piece: Buffer) => pieces.push(piece));
    request.on('end', () => {
      const text = Buffer.concat(pieces).toString('utf8');
      let body: unknown = text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        // Recorded as text.
      }
      const recorded: RecordedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body,
      };
      requests.push(recorded);
      const problem = /\/responses(\/input_tokens)?$/.test(request.url ?? '')
        ? responsesInputProblem(body)
        : undefined;
      if (problem !== undefined) {
        void answer(
          { status: 400, json: { error: { code: 400, message: problem, type: 'invalid_request_error' } } },
          response,
        );
        return;
      }
      const reply = queue.shift() ??
        answerer?.(recorded) ?? {
          status: 500,
          json: { error: { message: 'fake server: no scripted reply left', type: 'server_error' } },
        };
      void answer(reply, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    reply: (...replies) => queue.push(...replies),
    replyWith: (answer) => {
      answerer = answer;
    },
    get clientClosed() {
      return clientClosed;
    },
    waitForClientClose: () => new Promise<void>((resolve) => closeWaiters.push(resolve)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads a recorded stream from `src/__fixtures__` as a list of SSE events. */
export function fixtureEvents(name: string): string[] {
  const text = readFileSync(new URL(`../__fixtures__/${name}`, import.meta.url), 'utf8');
  return text
    .split('\n\n')
    .filter((event) => event.trim() !== '')
    .map((event) => `${event}\n\n`);
}

/** One Chat Completions SSE event for a chunk object. */
export function chatEvent(chunk: unknown): string {
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** The event that ends a Chat Completions stream. */
export const chatDone = 'data: [DONE]\n\n';

/** A Chat Completions chunk with one choice. */
export function chatChunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
  usage?: Record<string, unknown>,
): string {
  return chatEvent({
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...(usage === undefined ? {} : { usage }),
  });
}

/** A Chat Completions stream answering `text` with the given finish reason. */
export function chatText(text: string, finishReason = 'stop', usage?: Record<string, unknown>): string[] {
  return [chatChunk({ role: 'assistant', content: text }), chatChunk({}, finishReason, usage), chatDone];
}

/** One Responses SSE event. */
export function responsesEvent(event: { type: string } & Record<string, unknown>): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * The fake server of a test file: started before its tests (`beforeAll`),
 * closed after them, its requests cleared before each test. The handle it
 * returns reaches the server once started, so tests use it as the server.
 */
export function useFakeOpenAIServer(): FakeOpenAIServer {
  let started: FakeOpenAIServer | undefined;
  beforeAll(async () => {
    started = await startFakeOpenAIServer();
  });
  afterAll(() => started?.close());
  beforeEach(() => {
    if (started !== undefined) started.requests.length = 0;
  });
  return new Proxy({} as FakeOpenAIServer, {
    get(_target, key) {
      if (started === undefined)
        throw new Error('The fake OpenAI server starts in beforeAll: use it inside a test.');
      const value = Reflect.get(started, key, started);
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
}
