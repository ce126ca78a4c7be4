import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BenchServer, benchDatabaseVariable, startBenchServer } from '../postgres-server.js';
import { deltaText, executions, finalAnswer, type Scenario } from '../scenario.js';
import { allFrameworks } from './all-frameworks.js';

const frameworks = await allFrameworks();

// The PostgreSQL session row runs against a real server, as in pnpm bench.
let database: BenchServer | undefined;
beforeAll(async () => {
  database = await startBenchServer();
  process.env[benchDatabaseVariable] = database.url;
}, 60_000);
afterAll(async () => {
  await database?.stop();
});

function scenario(overrides: Partial<Scenario>): Scenario {
  return { steps: 3, deltas: 0, callsPerStep: 1, toolDelayMs: 0, iterate: false, ...overrides };
}

describe.each(frameworks.map((framework) => [framework.id, framework] as const))('%s', (_id, framework) => {
  it('runs every scripted tool call once and ends with the final answer', async () => {
    const before = executions.count;
    const outcome = await framework.run(scenario({}));
    expect(executions.count - before).toBe(3);
    expect(outcome.text).toBe(finalAnswer);
    const json = JSON.stringify(outcome.history);
    for (const expected of ['0+0=0', '1+0=1', '2+0=2']) expect(json).toContain(expected);
  });

  it.skipIf(!framework.streams)('streams the deltas to a consumer that iterates every event', async () => {
    const before = executions.count;
    const outcome = await framework.run(scenario({ deltas: 5, iterate: true }));
    expect(executions.count - before).toBe(3);
    expect(outcome.text).toBe(deltaText.repeat(5) + finalAnswer);
    // At least every delta of the four turns reached the consumer.
    expect(outcome.events).toBeGreaterThanOrEqual(4 * 5);
  });

  it.skipIf(!framework.multipleCalls)('runs several calls of one turn, each once', async () => {
    const before = executions.count;
    const outcome = await framework.run(scenario({ steps: 1, callsPerStep: 4, toolDelayMs: 1 }));
    expect(executions.count - before).toBe(4);
    const json = JSON.stringify(outcome.history);
    for (const expected of ['0+0=0', '0+1=1', '0+2=2', '0+3=3']) expect(json).toContain(expected);
  });
});
