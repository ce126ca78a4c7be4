// Preloaded with `node --import`: reports on stderr every module of
// @modelcontextprotocol/sdk that gets loaded, as `SDK <url>` lines.
import { register } from 'node:module';

register('./trace-sdk-imports-hooks.mjs', import.meta.url);
