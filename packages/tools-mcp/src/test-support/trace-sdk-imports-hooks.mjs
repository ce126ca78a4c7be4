// Module hooks for trace-sdk-imports.mjs. They run off the main thread, so
// they write to file descriptor 2 directly, synchronously.
import { writeSync } from 'node:fs';

export async function load(url, context, nextLoad) {
  if (url.includes('@modelcontextprotocol')) writeSync(2, `SDK ${url}\n`);
  return nextLoad(url, context);
}
