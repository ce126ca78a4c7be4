import { writeFileSync } from 'node:fs';
import { allFrameworks } from './frameworks/all-frameworks.js';
import { bareFramework } from './frameworks/bare.js';
import { heapGrowth } from './workloads/heap-growth.js';
import { parallelTools } from './workloads/parallel-tools.js';
import { perStep } from './workloads/per-step.js';
import { manySessions } from './workloads/many-sessions.js';
import { concurrentSessions } from './workloads/sessions.js';
import type { FrameworkResult } from './results.js';

// Runs workloads 1, 2, 3, 4 and 6 (or those listed) for one contender, with the bare loop
// alongside in this same process for the ratios. Usage: child.js <id> <out.json> [budgetMs] [workloads, e.g. 1,6] [passes]
// agent-core's contenders and the bare loop measure workloads 1 and 2 in `passes` passes (default 3), the peers in one.

const [id, out, budget, workloadList, passList] = process.argv.slice(2);
if (id === undefined || out === undefined)
  throw new Error('usage: child.js <framework id> <out.json> [budgetMs] [workloads] [passes]');
const budgetMs = Number(budget ?? 1000);
const workloads = new Set(
  (workloadList === undefined || workloadList === '' ? '1,2,3,4,6' : workloadList).split(','),
);
const framework = (await allFrameworks()).find((candidate) => candidate.id === id);
if (framework === undefined) throw new Error(`unknown framework '${id}'`);
const bare = bareFramework();
const passes = id.startsWith('core') || id.startsWith('bare') ? Math.max(1, Number(passList ?? 3)) : 1;
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
  result.perStep = await perStep(framework, bare, 0, budgetMs, passes);
}
if (workloads.has('2') && framework.streams) {
  log('workload 2 (streaming)');
  result.streaming = await perStep(framework, bare, 50, budgetMs, passes);
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
  if (id === 'core-session-memory') {
    log('workload 6 (10,000 sessions of one SessionManager)');
    result.manySessions = await manySessions(bare);
  }
}
writeFileSync(out, JSON.stringify(result, null, 2));
