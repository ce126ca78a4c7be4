import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicStream, openaiChatStream } from './workloads/sse-recordings.js';

// A local server, in its own process, that answers every POST with a recorded-format
// SSE stream of `events` events: Anthropic's for /v1/messages, OpenAI's for
// /v1/chat/completions. Prints its port, then serves until stdin closes.

const events = Number(process.argv[2] ?? 10_000);
const bodies: Record<string, Buffer> = {
  '/v1/messages': Buffer.from(anthropicStream(events)),
  '/v1/chat/completions': Buffer.from(openaiChatStream(events)),
};
const chunkSize = 16 * 1024;

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    const body = bodies[(request.url ?? '').split('?')[0] as string];
    if (body === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // Written in network-sized chunks, as a real server's stream arrives.
    let offset = 0;
    const pump = () => {
      while (offset < body.length) {
        const chunk = body.subarray(offset, offset + chunkSize);
        offset += chunk.length;
        if (!response.write(chunk)) {
          response.once('drain', pump);
          return;
        }
      }
      response.end();
    };
    pump();
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => server.close(() => process.exit(0)));
