import { allFrameworks } from './frameworks/all-frameworks.js';
import { stepScenario } from './scenario.js';

// One contender alone in a loop, to profile it:
//   node --cpu-prof dist/profile-run.js <contender id> <steps> [iterate 0|1] [seconds] [deltas]
// Prints how many runs fit in the time, a rough throughput to compare two builds at the same load.

const [id, steps, iterate, seconds, deltas] = process.argv.slice(2);
if (id === undefined || steps === undefined)
  throw new Error('usage: profile-run.js <contender id> <steps> [iterate 0|1] [seconds] [deltas]');
const framework = (await allFrameworks()).find((candidate) => candidate.id === id);
if (framework === undefined) throw new Error(`unknown contender '${id}'`);
const scenario = stepScenario(Number(steps), Number(deltas ?? 0), iterate === '1');
const end = performance.now() + Number(seconds ?? 8) * 1000;
let runs = 0;
while (performance.now() < end) {
  for (let index = 0; index < 100; index++) await framework.run(scenario);
  runs += 100;
}
process.stdout.write(`${runs} runs\n`);
