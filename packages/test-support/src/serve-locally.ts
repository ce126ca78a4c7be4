import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { WireServe } from '@agent-core/core/testing';

async function toRequest(incoming: IncomingMessage, origin: string, signal: AbortSignal): Promise<Request> {
  const parts: Buffer[] = [];
  for await (const part of incoming) parts.push(part as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const item of value) headers.append(name, item);
  }
  const method = incoming.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(parts);
  return new Request(new URL(incoming.url ?? '/', origin), { method, headers, body, signal });
}

/** Writes a web `Response` to the socket, chunk by chunk; a body that errors destroys the socket (a lost connection). */
async function write(response: Response, outgoing: ServerResponse): Promise<void> {
  outgoing.writeHead(response.status, Object.fromEntries(response.headers));
  outgoing.flushHeaders();
  if (response.body === null) {
    outgoing.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      outgoing.write(value);
    }
    outgoing.end();
  } catch {
    outgoing.socket?.destroy();
  }
}

/**
 * Serves a web handler on 127.0.0.1 at a free port, so a provider under the
 * kit talks to it through its real HTTP client and real sockets. The
 * request's signal aborts when the client goes away.
 */
export const serveLocally: WireServe = async (handler) => {
  const sockets = new Set<Socket>();
  let origin = '';
  const server = createServer((incoming, outgoing) => {
    const gone = new AbortController();
    outgoing.on('close', () => gone.abort());
    toRequest(incoming, origin, gone.signal)
      .then((request) => handler(request))
      .then((response) => write(response, outgoing))
      .catch(() => outgoing.socket?.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseURL: origin,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
