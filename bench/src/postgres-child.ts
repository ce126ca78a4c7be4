import { writeFileSync } from 'node:fs';
import { allFrameworks } from './frameworks/all-frameworks.js';
import { benchDatabaseUrl } from './postgres-server.js';
import type { PostgresStoreResult } from './results.js';
import { storeContention } from './workloads/store-contention.js';
import { storeLatency } from './workloads/store-latency.js';
import { storeList } from './workloads/store-list.js';

// Workload 9, the session stores side by side and the PostgreSQL store alone: added latency per step (one
// session, and 1,000 at once), list at 1,000 and 100,000 sessions, and 4 processes contending for sessions.
// Usage: postgres-child.js <out.json> <server description>

const [out, server = ''] = process.argv.slice(2);
if (out === undefined) throw new Error('usage: postgres-child.js <out.json> [server description]');
const url = benchDatabaseUrl();
const log = (line: string) => process.stderr.write(`  stores: ${line}\n`);
const frameworks = await allFrameworks();
const result: PostgresStoreResult = { server, latency: [], list: [] };
// The bare loop first, in the same process: how much of the latency is the machine's own noise.
for (const id of ['bare', 'core-session-memory', 'core-session-file', 'core-session-postgres']) {
  const framework = frameworks.find((candidate) => candidate.id === id);
  if (framework === undefined) continue;
  log(`added latency per step, ${framework.label}`);
  result.latency.push(await storeLatency(framework));
}
log('list');
result.list = await storeList(url);
log('4 processes × 1,000 prompts');
result.contention = await storeContention(url);
writeFileSync(out, JSON.stringify(result, null, 2));
process.exit(0);
