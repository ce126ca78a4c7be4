import { register } from 'node:module';

// Loads another build of @agent-core/core in place of the workspace's, for every importer
// (the bench and the orchestrators alike), without touching packages/core/dist:
//   AGENT_CORE_DIST=<dist dir> node --import ./dist/core-from.js dist/child.js ...
// `contract-cost.js` measures main's core this way, as `pnpm bench` measures the workspace's.

const dist = process.env.AGENT_CORE_DIST;
if (dist !== undefined && dist !== '') register('./core-from-hooks.js', import.meta.url, { data: { dist } });
