import { readFileSync } from 'node:fs';
import { anthropicErrorBody } from '@agent-core/test-support';
import { afterAll, beforeAll, vi } from 'vitest';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request the fake server received, recorded so tests can assert on what was sent. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON that tests inspect freely
  body: any;
}

/** What the server answers to the next request. */
export type Reply =
  /** HTTP 200 with an SSE body, written in pieces (one per string) to exercise chunk boundaries. */
  | { type: 'sse'; body: string | string[]; headers?: Record<string, string> }
  /** A JSON response, such as an API error body. */
  | { type: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  /** Writes the SSE text, then destroys the socket without ending the response. */
  | { type: 'drop'; body: string }
  /** Writes the SSE text, then holds the connection open until the client goes away. */
  | { type: 'hang'; body: string };

/** A local stand-in for the Messages API that speaks its HTTP and SSE wire format. */
export interface AnthropicTestServer {
  /** Base URL for `anthropic({ baseURL })`. */
  readonly url: string;
  /** Every request received, in order. */
  readonly requests: RecordedRequest[];
  /** Queues replies for the next requests to /v1/messages, in order. */
  reply(...replies: Reply[]): void;
  /** Answers each request to /v1/messages that finds no reply queued from the request itself (undefined: stop). */
  replyWith(answer: ((request: RecordedRequest) => Reply) | undefined): void;
  /** Queues `input_tokens` answers for /v1/messages/count_tokens. */
  countTokensReply(inputTokens: number): void;
  /** Resolves when the connection of the request at `index` has been closed by the client. */
  closed(index: number): Promise<void>;
  close(): Promise<void>;
}

const fixtureDirectory = new URL('../__fixtures__/', import.meta.url);

/** Reads a recorded SSE stream from `src/__fixtures__/<name>.sse`. */
export function fixture(name: string): string {
  return readFileSync(new URL(`${name}.sse`, fixtureDirectory), 'utf8');
}

/** An API error body, as Anthropic sends with 4xx and 5xx responses. */
export const errorBody = anthropicErrorBody;

function writeJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_test', ...headers });
  response.end(JSON.stringify(body));
}

/** Starts the fake API on 127.0.0.1 at a free port. Call `close()` when done. */
export async function startAnthropicServer(): Promise<AnthropicTestServer> {
  const requests: RecordedRequest[] = [];
  const replies: Reply[] = [];
  let answerer: ((request: RecordedRequest) => Reply) | undefined;
  const tokenCounts: number[] = [];
  const closedPromises: Promise<void>[] = [];
  const sockets = new Set<Socket>();
  let arrivals = 0;

  const server = createServer((request, response) => {
    const index = arrivals++;
    const chunks: Buffer[] = [];
    let settleClosed: () => void = () => {};
    closedPromises[index] = new Promise<void>((resolve) => {
      settleClosed = resolve;
    });
    response.on('close', () => settleClosed());
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests[index] = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers: request.headers,
        body: text === '' ? undefined : JSON.parse(text),
      };
      if (request.url?.startsWith('/v1/messages/count_tokens')) {
        writeJson(response, 200, { input_tokens: tokenCounts.shift() ?? 0 });
        return;
      }
      const reply = replies.shift() ?? answerer?.(requests[index] as RecordedRequest);
      if (reply === undefined) {
        writeJson(response, 500, errorBody('api_error', 'the test server has no reply queued'));
        return;
      }
      if (reply.type === 'json') {
        writeJson(response, reply.status, reply.body, reply.headers);
        return;
      }
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        'request-id': 'req_test',
        ...(reply.type === 'sse' ? reply.headers : {}),
      });
      if (reply.type === 'sse') {
        const pieces = typeof reply.body === 'string' ? [reply.body] : reply.body;
        for (const piece of pieces) response.write(piece);
        response.end();
      } else if (reply.type === 'drop') {
        response.write(reply.body, () => response.socket?.destroy());
      } else {
        response.write(reply.body);
      }
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (...next) => {
      replies.push(...next);
    },
    replyWith: (answer) => {
      answerer = answer;
    },
    countTokensReply: (inputTokens) => {
      tokenCounts.push(inputTokens);
    },
    closed: (index) => closedPromises[index] ?? Promise.reject(new Error(`no request ${index}`)),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The fake API of a test file: started before its tests (`beforeAll`) and
 * closed after them, with the SDK's log off while it runs when `quietSdk` is set. The handle it
 * returns reaches the server once started, so tests use it as the server.
 */
export function useAnthropicServer(options: { quietSdk?: boolean } = {}): AnthropicTestServer {
  let started: AnthropicTestServer | undefined;
  beforeAll(async () => {
    started = await startAnthropicServer();
    // The SDK logs unparsable stream data before it throws; `quietSdk` keeps test output clean.
    if (options.quietSdk === true) vi.stubEnv('ANTHROPIC_LOG', 'off');
  });
  afterAll(async () => {
    if (options.quietSdk === true) vi.unstubAllEnvs();
    await started?.close();
  });
  return new Proxy({} as AnthropicTestServer, {
    get(_target, key) {
      if (started === undefined)
        throw new Error('The fake Anthropic API starts in beforeAll: use it inside a test.');
      const value = Reflect.get(started, key, started);
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
}
