import { contenderById, fullCollection, waitingScenario } from './waiting-runs.js';

// What a run holds while it waits for its model, as a thousand concurrent sessions do:
// starts `sessions` runs whose model answers at once for `steps` steps and then never
// again, and divides the heap they keep (after full collections) by their number:
//   node --expose-gc dist/inflight-run.js <contender id | bare> <steps done> [sessions] [--json]

const json = process.argv.includes('--json');
const [id, steps, count] = process.argv.slice(2).filter((arg) => arg !== '--json');
if (id === undefined || steps === undefined)
  throw new Error(
    'usage: node --expose-gc dist/inflight-run.js <contender id | bare> <steps done> [sessions]',
  );
const collect = fullCollection();
const framework = await contenderById(id);
const sessions = Number(count ?? 1000);
const scenario = (blocked: boolean) => waitingScenario(Number(steps), blocked);
for (let index = 0; index < 300; index++) await framework.run(scenario(false));
collect();
collect();
const before = process.memoryUsage().heapUsed;
const waiting: Promise<unknown>[] = [];
for (let index = 0; index < sessions; index++) waiting.push(framework.run(scenario(true)));
await new Promise((resolve) => setTimeout(resolve, 500));
collect();
collect();
const held = (process.memoryUsage().heapUsed - before) / sessions;
process.stdout.write(
  json
    ? `${JSON.stringify({ contender: id, steps: Number(steps), runs: sessions, bytesPerRun: held })}\n`
    : `${id}: ${(held / 1024).toFixed(2)} KB per run waiting for its model after ${steps} steps (${sessions} runs)\n`,
);
// The runs wait for a model that never answers: end here.
process.exit(0);
