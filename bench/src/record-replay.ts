import { writeFileSync } from 'node:fs';
import { renderRecordReplay } from './report-record-replay.js';
import type { BenchResults } from './results.js';
import { measureRecordReplay } from './workloads/record-replay.js';

// Workload 12 in a process of its own: `node dist/record-replay.js [out.json]` writes its results
// to out.json (as `pnpm bench` asks), or prints its tables.

const out = process.argv[2];
const recordReplay = await measureRecordReplay();
if (out !== undefined) writeFileSync(out, `${JSON.stringify(recordReplay, null, 2)}\n`);
else process.stdout.write(`${renderRecordReplay({ recordReplay } as BenchResults).join('\n\n')}\n`);
