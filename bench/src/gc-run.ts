import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { allFrameworks } from './frameworks/all-frameworks.js';
import { stepScenario } from './scenario.js';

// One contender alone for a fixed number of runs, measured by what does not depend on the
// machine's load: CPU time (the collector's threads included) and collections per step, and
// how much of each run is still reachable at a young-generation collection after it ended:
//   node --expose-gc dist/gc-run.js <contender id> <steps> <runs>
// Compare two builds by running each in its own process, alternately, a few times.

const [id, steps, runs] = process.argv.slice(2);
if (id === undefined || steps === undefined || runs === undefined)
  throw new Error('usage: node --expose-gc dist/gc-run.js <contender id> <steps> <runs>');
const collect = (globalThis as { gc?: (options?: { type: 'minor' | 'major' }) => void }).gc;
if (collect === undefined) throw new Error('run with node --expose-gc');
const framework = (await allFrameworks()).find((candidate) => candidate.id === id);
if (framework === undefined) throw new Error(`unknown contender '${id}'`);
const scenario = stepScenario(Number(steps), 0, false);
const count = Number(runs);
for (let index = 0; index < Math.max(50, 20_000 / scenario.steps); index++) await framework.run(scenario);

let minor = 0;
let major = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
    if (kind === constants.NODE_PERFORMANCE_GC_MINOR) minor++;
    else major++;
  }
});
observer.observe({ entryTypes: ['gc'] });
const cpu = process.cpuUsage();
for (let index = 0; index < count; index++) await framework.run(scenario);
const used = process.cpuUsage(cpu);
await new Promise((resolve) => setTimeout(resolve, 50));
observer.disconnect();

// Runs that ended but are still reachable at a young collection are copied to the old generation.
const oldSpace = () =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')?.space_used_size ?? 0;
collect({ type: 'major' });
collect({ type: 'minor' });
const before = oldSpace();
const probeRuns = Math.max(1, Math.round(200_000 / (scenario.steps * 1000)));
for (let index = 0; index < probeRuns; index++) await framework.run(scenario);
collect({ type: 'minor' });
collect({ type: 'minor' });
const kept = (oldSpace() - before) / probeRuns;

const stepCount = count * scenario.steps;
process.stdout.write(
  `${id} N=${steps}: CPU ${((used.user + used.system) / stepCount).toFixed(2)} µs/step, ` +
    `${minor} young and ${major} full collections, ` +
    `${(kept / 1024).toFixed(1)} KB per run kept past a young collection\n`,
);
