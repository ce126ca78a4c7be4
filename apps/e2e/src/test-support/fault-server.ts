import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** What the server does with one request. */
export type ServerReply =
  /** A whole HTTP answer: status, content type and body as they are. */
  | { type: 'http'; status: number; contentType: string; body: string }
  /**
   * HTTP 200 `text/event-stream`: each event written as its own chunk; then
   * the `ending`: `end` closes the response, `drop` destroys the socket, `hang`
   * holds it open until the client goes away.
   */
  | { type: 'stream'; events: readonly string[]; ending: 'end' | 'drop' | 'hang' }
  /** Destroys the socket before any byte of the response. */
  | { type: 'drop' }
  /** Never answers: holds the request until the client goes away. */
  | { type: 'hang' };

/** A request as the server read it. */
export interface ReceivedRequest {
  path: string;
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON the tests read freely
  body: any;
}

/** A local server that answers each request with what `answer` says, for fault injection. */
export interface FaultServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** Every request received, in order. */
  readonly requests: ReceivedRequest[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

async function writeReply(reply: ServerReply, response: ServerResponse): Promise<void> {
  switch (reply.type) {
    case 'drop':
      response.socket?.destroy();
      return;
    case 'hang':
      return;
    case 'http':
      response.writeHead(reply.status, { 'content-type': reply.contentType });
      response.end(reply.body);
      return;
    case 'stream': {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      // Headers go out on their own, so "after the headers, before any event" is a point of its own.
      response.flushHeaders();
      for (const event of reply.events) {
        // Each event reaches the client as a chunk of its own.
        await new Promise((resolve) => setImmediate(resolve));
        if (response.destroyed) return;
        response.write(event);
      }
      await new Promise((resolve) => setImmediate(resolve));
      if (reply.ending === 'end') response.end();
      else if (reply.ending === 'drop') response.socket?.destroy();
      return;
    }
  }
}

/**
 * Starts the server on 127.0.0.1 at a free port. `answer` gets each request
 * (and its number, from 0) and says what to send back.
 */
export async function startFaultServer(
  answer: (request: ReceivedRequest, index: number) => ServerReply,
): Promise<FaultServer> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    readBody(request)
      .then((text) => {
        const received: ReceivedRequest = {
          path: request.url ?? '',
          body: text === '' ? undefined : JSON.parse(text),
        };
        const index = requests.push(received) - 1;
        return writeReply(answer(received, index), response);
      })
      .catch((error: unknown) => {
        if (response.headersSent) response.socket?.destroy();
        else {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: `fault server: ${String(error)}` } }));
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
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
