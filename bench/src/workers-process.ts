import type { Provider } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { PostgresSessionStore } from '@agent-core/store-postgres';
import { RunWorker } from '@agent-core/workers';

// One worker process of workload 14: `workers-process.js <url> <schema> <concurrency> <lease ms>`. Its
// model prints `request <session> <epoch ms>` at each request and answers at once; a session named
// `hang-*` is first asked to call `wait`, which waits ten minutes, so the bench can kill its worker
// mid-run (`tool <session> <pid>` says the call started). Prints `ready` once it takes jobs; SIGTERM stops it.

const [url, schema, concurrency, lease] = process.argv.slice(2);
if (url === undefined || schema === undefined)
  throw new Error('usage: workers-process.js <url> <schema> <concurrency> <lease ms>');
const leaseDurationMs = Number(lease);
const now = () => (performance.timeOrigin + performance.now()).toFixed(3);
const say = (line: string) => process.stdout.write(`${line}\n`);

function modelFor(sessionId: string): Provider {
  return {
    name: 'bench',
    async *stream(request) {
      say(`request ${sessionId} ${now()}`);
      const answered = request.messages.some(
        (message) => (message as { role: string }).role === 'toolResult',
      );
      const content =
        sessionId.startsWith('hang-') && !answered
          ? [{ type: 'toolCall' as const, id: `wait-${sessionId}`, name: 'wait', input: {} }]
          : [{ type: 'text' as const, text: 'ok' }];
      yield {
        type: 'done',
        message: {
          role: 'assistant',
          content,
          stopReason: content[0]?.type === 'toolCall' ? 'tool_use' : 'end_turn',
        },
      };
    },
  };
}

const wait = {
  name: 'wait',
  description: 'Waits ten minutes',
  parameters: { type: 'object', properties: {} },
  async execute(_input: unknown, context: { signal: AbortSignal; toolCallId: string }) {
    say(`tool ${context.toolCallId.slice('wait-'.length)} ${process.pid}`);
    await new Promise((resolve) => setTimeout(resolve, 600_000));
    return 'waited';
  },
};

const store = new PostgresSessionStore({ connectionString: url, schema, leaseDurationMs, maxConnections: 8 });
const worker = new RunWorker({
  connectionString: url,
  schema,
  store,
  concurrency: Number(concurrency),
  leaseDurationMs,
  maxConnections: 12,
  agentOptions: ({ id }) => ({
    provider: modelFor(id),
    model: 'bench',
    tools: [wait],
    orchestrator: stepOrchestrator,
  }),
});
await worker.start();
say('ready');
process.once('SIGTERM', async () => {
  await worker.stop({ deadlineMs: 5_000 });
  await store.close();
  process.exit(0);
});
