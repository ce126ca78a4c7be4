// One process working on session <id> under <root>, as the takeover test's children:
// `turns <count>`: prompts <count> times, waiting its turn while the other process runs the session;
// `hold`: prompts once, and its tool call waits for a line on stdin before it returns.
// Prints one JSON line per finished prompt; the tool prints `tool started <runId>` first.
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { SessionManager, silentLogger } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { FileSessionStore } from '../../dist/index.js';

const [root, id, name, leaseStaleMs, mode, count] = process.argv.slice(2);

// A stateless model: a tool call after each prompt, then an answer.
const provider = {
  name: 'scripted',
  async *stream(request) {
    const last = request.messages.at(-1);
    const message =
      last?.role === 'user'
        ? {
            role: 'assistant',
            content: [
              {
                type: 'toolCall',
                id: `${name}-${request.messages.length}-${Math.random().toString(36).slice(2)}`,
                name: 'note',
                input: {},
              },
            ],
            stopReason: 'tool_use',
          }
        : {
            role: 'assistant',
            content: [{ type: 'text', text: `noted by ${name}` }],
            stopReason: 'end_turn',
          };
    yield { type: 'done', message };
  },
};

const note = {
  name: 'note',
  description: 'notes something',
  parameters: { type: 'object', properties: {} },
  async execute(_input, context) {
    process.stdout.write(`tool started ${context.toolCallId}\n`);
    if (mode === 'hold') await once(process.stdin, 'data');
    return `noted by ${name}`;
  },
};

const manager = new SessionManager({
  // Lost leases and broken stale ones are what these runs are about: the test checks the outcome, not the warnings.
  store: new FileSessionStore({ root, leaseStaleMs: Number(leaseStaleMs), logger: silentLogger }),
  agentOptions: () => ({ provider, model: 'scripted', tools: [note], orchestrator: stepOrchestrator }),
});

const prompts = mode === 'hold' ? 1 : Number(count);
for (let done = 0; done < prompts; ) {
  const session = await manager.get(id);
  const run = session.prompt(`prompt ${done} from ${name}`);
  const result = await run.result();
  const code = result.error?.code;
  // The other process runs it, or ran it since this one loaded it: load it again and retry.
  if (mode === 'turns' && (code === 'session_busy' || code === 'session_conflict')) {
    manager.close(id);
    await sleep(5 + Math.random() * 20);
    continue;
  }
  process.stdout.write(
    `${JSON.stringify({ name, reason: result.terminateReason, code, runId: result.runId })}\n`,
  );
  done++;
}
process.exit(0);
