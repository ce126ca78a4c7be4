// One process of the deciding race: `pause <root> <id>` runs a session to await_user on one write;
// `decide <root> <id> <name>` loads it, writes a ready marker, waits for the go file, then allows the call
// and prints how its run ended. The tool appends a line to <root>/ran.txt each time it runs.
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { policies, SessionManager } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { FileSessionStore } from '../../dist/index.js';

const [mode, root, id, name] = process.argv.slice(2);

// A stateless model: one write first, then an answer naming the result it saw.
const provider = {
  name: 'scripted',
  async *stream(request) {
    const result = request.messages.find((message) => message.role === 'toolResult');
    const message =
      result === undefined
        ? {
            role: 'assistant',
            content: [{ type: 'toolCall', id: 'w1', name: 'write_file', input: { path: `${id}.txt` } }],
            stopReason: 'tool_use',
          }
        : {
            role: 'assistant',
            content: [{ type: 'text', text: `done: ${result.content}` }],
            stopReason: 'end_turn',
          };
    yield { type: 'done', message };
  },
};

const writeFile = {
  name: 'write_file',
  description: 'writes a file',
  risk: 'write',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  execute({ path }) {
    appendFileSync(join(root, 'ran.txt'), `${id} ${path} by ${name}\n`);
    return `wrote ${path}`;
  },
};

// No approver: the standard policy asks about a write, so the run pauses.
const manager = new SessionManager({
  store: new FileSessionStore({ root: join(root, 'sessions') }),
  agentOptions: () => ({
    provider,
    model: 'scripted',
    tools: [writeFile],
    policy: policies.standard,
    orchestrator: stepOrchestrator,
  }),
});

if (mode === 'pause') {
  const session = await manager.create({ id });
  const result = await session.prompt('write a file').result();
  process.stdout.write(`${JSON.stringify({ reason: result.terminateReason })}\n`);
} else {
  const session = await manager.get(id);
  const decisions = session.agent.pendingApprovals.map((approval) => ({
    toolCallId: approval.toolCallId,
    inputHash: approval.inputHash,
    decision: 'allow',
  }));
  writeFileSync(join(root, `ready-${id}-${name}`), '');
  while (!existsSync(join(root, `go-${id}`))) await sleep(1);
  const result = await session.resume({ decisions }).result();
  process.stdout.write(
    `${JSON.stringify({ name, reason: result.terminateReason, code: result.error?.code, pending: decisions.length })}\n`,
  );
}
