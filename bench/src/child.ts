import { writeFileSync } from 'node:fs';
import { allFrameworks } from './frameworks/all-frameworks.js';
import { bareFramework } from './frameworks/bare.js';
import { heapGrowth } from './workloads/heap-growth.js';
import { parallelTools } from './workloads/parallel-tools.js';
import { perStep } from './workloads/per-step.js';
import { concurrentSessions } from './workloads/sessions.js';
import type { FrameworkResult } from './results.js';

// Runs workloads 1, 2, 3, 4 and 6 (or those listed) for one contender, with the bare loop
// alongside in this same process for the ratios. Usage: child.js <id> <out.json> [budgetMs] [workloads, e.g. 1,6]

const [id, out, budget, workloadList] = process.argv.slice(2);
if (id === undefined || out === undefined)
  throw new Error('usage: child.js <framework id> <out.json> [budgetMs] [workloads]');
const budgetMs = Number(budget ?? 1000);
const workloads = new Set((workloadList ?? '1,2,3,4,6').split(','));
const framework = (await allFrameworks()).find((candidate) => candidate.id === id);
if (framework === undefined) throw new Error(`unknown framework '${id}'`);
const bare = bareFramework();
const log = (line: string) => process.stderr.write(`  ${id}: ${line}\n`);

const result: FrameworkResult = {
  id: framework.id,
  label: framework.label,
  version: framework.version,
  perStep: [],
  streaming: [],
};
if (workloads.has('1')) {
  log('workload 1 (steps)');
  result.perStep = await perStep(framework, bare, 0, budgetMs);
}
if (workloads.has('2') && framework.streams) {
  log('workload 2 (streaming)');
  result.streaming = await perStep(framework, bare, 50, budgetMs);
}
if (workloads.has('3')) {
  log('workload 3 (heap)');
  result.heap = await heapGrowth(framework, bare);
}
if (workloads.has('4')) {
  log('workload 4 (parallel tools)');
  const parallel = await parallelTools(framework, bare);
  if (parallel !== undefined) result.parallel = parallel;
}
if (workloads.has('6')) {
  log('workload 6 (sessions)');
  result.sessions = await concurrentSessions(framework);
  result.bareSessions = await concurrentSessions(bare);
}
writeFileSync(out, JSON.stringify(result, null, 2));
