// Serves the check's page and its bundle on 127.0.0.1, and nothing else: any other request
// gets a 404, which the page reports as a console error, so a stray fetch fails the check.
import { createServer } from 'node:http';

/**
 * @typedef {{ port: number, close: () => Promise<void> }} StaticServer
 */

/**
 * Starts the server on a free port.
 * @param {Record<string, { type: string, body: string | Uint8Array }>} files by URL path (`/`, `/bundle.js`)
 * @returns {Promise<StaticServer>}
 */
export async function startStaticServer(files) {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const file = request.method === 'GET' ? files[path] : undefined;
    if (file === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`not served: ${path}`);
      return;
    }
    response.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' }).end(file.body);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the page server has no port');
  return {
    port: address.port,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
