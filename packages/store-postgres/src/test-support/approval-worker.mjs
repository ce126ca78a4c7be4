// A process of the approval tests: `approval-worker.mjs pause <url> <schema> <folder> <id>` runs session <id>
// to await_user on one write and prints how the run ended; `... decide <url> <schema> <folder> <id> <name>`
// loads it, writes <folder>/ready-<id>-<name>, waits for <folder>/go-<id>, allows the call and prints how its
// run ended. The tool appends a line to <folder>/ran.txt each time it runs.
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SessionManager } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { PostgresSessionStore } from '../../dist/index.js';

const [mode, url, schema, folder, id, name] = process.argv.slice(2);

// A stateless model: one write first, then an answer naming the result it saw.
const provider = mock({
  chunkSize: 0,
  turns: (request) => {
    const result = request.messages.find((message) => message.role === 'toolResult');
    return result === undefined
      ? { toolCalls: [{ name: 'write_file', id: 'w1', input: { path: `${id}.txt` } }] }
      : { text: `done: ${result.content}` };
  },
});

const writeFile = {
  name: 'write_file',
  description: 'writes a file',
  risk: 'write',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute({ path }) {
    appendFileSync(join(folder, 'ran.txt'), `${id} ${path} by ${name}\n`);
    return `wrote ${path}`;
  },
};

const store = new PostgresSessionStore({ connectionString: url, schema });
// No approver: the standard policy asks about a write, so the run pauses.
const manager = new SessionManager({
  store,
  agentOptions: () => ({
    provider,
    model: 'mock',
    tools: [writeFile],
    policy: 'standard',
    orchestrator: stepOrchestrator,
  }),
});

if (mode === 'pause') {
  const session = await manager.create({ id });
  const result = await session.prompt('write a file').result();
  process.stdout.write(
    `${JSON.stringify({ reason: result.terminateReason, pending: result.pendingApprovals?.length })}\n`,
  );
} else {
  const session = await manager.get(id);
  const decisions = session.agent.pendingApprovals.map((approval) => ({
    toolCallId: approval.toolCallId,
    inputHash: approval.inputHash,
    decision: 'allow',
  }));
  writeFileSync(join(folder, `ready-${id}-${name}`), '');
  while (!existsSync(join(folder, `go-${id}`))) await sleep(1);
  const result = await session.resume({ decisions }).result();
  process.stdout.write(
    `${JSON.stringify({ name, reason: result.terminateReason, code: result.error?.code, pending: decisions.length })}\n`,
  );
}
await store.close();
