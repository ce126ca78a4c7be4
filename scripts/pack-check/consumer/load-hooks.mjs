// Module hooks (they run on Node's hooks thread): report every module URL that
// loads, so a consumer script can tell which packages an import pulled in.
/** @type {import('node:worker_threads').MessagePort | undefined} */
let port;

/** @param {{ port: import('node:worker_threads').MessagePort }} data */
export function initialize(data) {
  port = data.port;
  // Messages on one port arrive in order, so this reply comes after every load reported before it.
  port.on('message', (message) => {
    if (message === 'flush') port?.postMessage({ type: 'flushed' });
  });
  port.unref();
}

/**
 * @param {string} url
 * @param {unknown} context
 * @param {(url: string, context: unknown) => Promise<unknown>} nextLoad
 */
export function load(url, context, nextLoad) {
  port?.postMessage({ type: 'load', url });
  return nextLoad(url, context);
}
