// A tiny npm registry for our scope only: it serves the packuments and tarballs
// of the packages just packed, on 127.0.0.1. npm reaches it through the scoped
// setting `--@agent-core:registry=...`, so everything else still comes from the
// npm registry, as it does for a user.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename } from 'node:path';

/**
 * @typedef {import('./read-tarball.mjs').Tarball} Tarball
 * @typedef {{ url: string, scope: string, npmArguments: string[], close: () => Promise<void> }} LocalRegistry
 */

/**
 * Starts the registry on a free port. Every URL carries a fresh run id, so npm's cache
 * never mixes up two runs' tarballs of the same version.
 * @param {readonly Tarball[]} tarballs
 * @returns {Promise<LocalRegistry>}
 */
export async function startLocalRegistry(tarballs) {
  const runId = randomUUID();
  /** @type {Map<string, Tarball>} */
  const byName = new Map(tarballs.map((tarball) => [tarball.manifest.name, tarball]));
  /** @type {Map<string, Tarball>} */
  const byFile = new Map(tarballs.map((tarball) => [basename(tarball.file), tarball]));
  let base = '';

  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const prefix = `/${runId}/`;
    if (request.method !== 'GET' || !path.startsWith(prefix)) return notFound(response);
    const rest = path.slice(prefix.length);
    if (rest.startsWith('-/')) {
      const tarball = byFile.get(rest.slice(2));
      if (tarball === undefined) return notFound(response);
      const bytes = readFileSync(tarball.file);
      response.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': bytes.length,
        'cache-control': 'no-store',
      });
      response.end(bytes);
      return;
    }
    const tarball = byName.get(rest);
    if (tarball === undefined) return notFound(response);
    const { name, version } = tarball.manifest;
    const body = JSON.stringify({
      _id: name,
      name,
      'dist-tags': { latest: version },
      versions: {
        [version]: {
          ...tarball.manifest,
          _id: `${name}@${version}`,
          dist: {
            tarball: `${base}-/${basename(tarball.file)}`,
            integrity: tarball.integrity,
            shasum: tarball.shasum,
          },
        },
      },
    });
    response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end(body);
  });

  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the local registry has no port');
  base = `http://127.0.0.1:${address.port}/${runId}/`;
  return {
    url: base,
    scope: '@agent-core',
    npmArguments: [`--@agent-core:registry=${base}`],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** @param {import('node:http').ServerResponse} response */
function notFound(response) {
  response.writeHead(404, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: 'not found' }));
}
