import { writeFileSync } from 'node:fs';
import { benchDatabaseUrl, startBenchServer } from './postgres-server.js';
import { renderWorkers, workerTargets } from './report-workers.js';
import type { BenchResults } from './results.js';
import { measureWorkerPool } from './workloads/worker-pool.js';

// Workload 14, runs as jobs of @agent-core/workers. Usage: workers-child.js <out.json> (from pnpm bench, which
// hands over its server), or `pnpm bench:workers`, which starts a server of its own and prints the table.

const [out] = process.argv.slice(2);
const log = (line: string) => process.stderr.write(`  workers: ${line}\n`);
const own = out === undefined ? await startBenchServer() : undefined;
try {
  const result = await measureWorkerPool(own?.url ?? benchDatabaseUrl(), log);
  if (out !== undefined) writeFileSync(out, JSON.stringify(result, null, 2));
  else {
    const results = { workers: result } as BenchResults;
    const targets = workerTargets(results).map(
      (entry) => `- ${entry.target}: ${entry.measured} (${entry.pass ? 'met' : 'not met'})`,
    );
    process.stdout.write(
      `${[`PostgreSQL: ${own?.description}`, ...renderWorkers(results), ...targets].join('\n\n')}\n`,
    );
  }
} finally {
  await own?.stop();
}
process.exit(0);
