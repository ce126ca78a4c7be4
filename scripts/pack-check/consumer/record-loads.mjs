// Records which installed packages load, through module hooks: call
// `startRecordingLoads()` before importing anything from node_modules.
import { register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

/** The package a file belongs to: the name after its last `node_modules/`. */
export function packageOf(url) {
  if (!url.startsWith('file:')) return undefined;
  const path = fileURLToPath(url);
  const index = path.lastIndexOf('/node_modules/');
  if (index === -1) return undefined;
  const [first, second] = path.slice(index + '/node_modules/'.length).split('/');
  return first?.startsWith('@') ? `${first}/${second}` : first;
}

/** Starts recording; `loadedPackages()` resolves with every package loaded so far, in order. */
export function startRecordingLoads() {
  const { port1, port2 } = new MessageChannel();
  /** @type {string[]} */
  const packages = [];
  /** @type {(() => void)[]} */
  const waiting = [];
  port1.on('message', (message) => {
    if (message.type === 'load') {
      const name = packageOf(message.url);
      if (name !== undefined && !packages.includes(name)) packages.push(name);
    } else {
      waiting.shift()?.();
      if (waiting.length === 0) port1.unref();
    }
  });
  port1.unref();
  register('./load-hooks.mjs', import.meta.url, { data: { port: port2 }, transferList: [port2] });
  return {
    /** @returns {Promise<string[]>} */
    async loadedPackages() {
      port1.ref();
      await new Promise((resolve) => {
        waiting.push(() => resolve(undefined));
        port1.postMessage('flush');
      });
      return [...packages];
    },
  };
}
