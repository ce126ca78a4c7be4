// A worker process of the worker crash test: `worker-child.mjs <url> <schema> <ran-file> <concurrency> <lease-ms> [tool-delay-ms]`.
// It serves the run queue with a RunWorker over a PostgresSessionStore, on a stateless mock model that
// asks for three `work` calls a run and then answers. Each call appends `<session> <call id>` to
// <ran-file> when it runs, so the test counts executions outside the process. It prints `ready` once
// it takes jobs; on SIGTERM it stops taking jobs, lets its runs finish, prints `stopped <handed on>`
// and exits 0.
import { appendFileSync } from 'node:fs';
import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { PostgresSessionStore } from '@agent-core/store-postgres';
import { RunWorker } from '@agent-core/workers';
import { exitOnInvalidHistory } from './child-stores.mjs';

const [connectionString, schema, ranFile, concurrency, leaseText, toolDelay = '6'] = process.argv.slice(2);
const leaseDurationMs = Number(leaseText);
const pause = (most) => new Promise((resolve) => setTimeout(resolve, Math.random() * most));

const provider = mock({
  chunkSize: 0,
  turns: (request) => {
    exitOnInvalidHistory(request.messages);
    const session = String(request.messages[0]?.content).split(' ').at(-1);
    const results = request.messages.filter((message) => message.role === 'toolResult').length;
    if (results >= 3) return { text: `done after ${results}`, latencyMs: Math.random() * 4 };
    return {
      toolCalls: [{ name: 'work', id: `c${results}`, input: { step: results, session } }],
      latencyMs: Math.random() * 4,
    };
  },
});

const work = {
  name: 'work',
  description: 'Does one step of work',
  parameters: { type: 'object', properties: { step: { type: 'number' }, session: { type: 'string' } } },
  async execute(input, context) {
    await pause(Number(toolDelay));
    appendFileSync(ranFile, `${input.session} ${context.toolCallId}\n`);
    await pause(Number(toolDelay));
    return `step ${input.step} done`;
  },
};

const store = new PostgresSessionStore({ connectionString, schema, leaseDurationMs, maxConnections: 4 });
const worker = new RunWorker({
  connectionString,
  schema,
  store,
  concurrency: Number(concurrency),
  leaseDurationMs,
  maxConnections: 6,
  agentOptions: () => ({ provider, model: 'mock', tools: [work], orchestrator: stepOrchestrator }),
});
await worker.start();
process.stdout.write('ready\n');
process.once('SIGTERM', async () => {
  const { handedOn } = await worker.stop({ deadlineMs: 20_000 });
  await store.close();
  process.stdout.write(`stopped ${handedOn}\n`);
  process.exit(0);
});
