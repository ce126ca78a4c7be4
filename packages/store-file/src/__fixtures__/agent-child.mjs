// Runs a session whose second tool call hangs (mode "first"), or loads it in a fresh process and prompts again ("second").
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyProblems, SessionManager } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { FileSessionStore } from '../../dist/index.js';

const [root, mode] = process.argv.slice(2);

// A stateless model: its reply depends only on the request, as a real model's would.
const provider = {
  name: 'scripted',
  async *stream(request) {
    const results = request.messages.filter((message) => message.role === 'toolResult').length;
    const call = (id, step) => ({ type: 'toolCall', id, name: 'work', input: { step } });
    const message =
      results === 0
        ? { role: 'assistant', content: [call('w1', 1)], stopReason: 'tool_use' }
        : results === 1
          ? { role: 'assistant', content: [call('w2', 2)], stopReason: 'tool_use' }
          : {
              role: 'assistant',
              content: [{ type: 'text', text: `answered after ${results} results` }],
              stopReason: 'end_turn',
            };
    yield { type: 'done', message };
  },
};

const work = {
  name: 'work',
  description: 'does one step of work',
  parameters: { type: 'object', properties: { step: { type: 'number' } }, required: ['step'] },
  execute({ step }) {
    appendFileSync(join(root, 'ran.txt'), `step ${step}\n`);
    if (step === 1) return 'one done';
    process.stdout.write('slow call started\n');
    return new Promise(() => {});
  },
};

const manager = new SessionManager({
  store: new FileSessionStore({ root: join(root, 'sessions') }),
  agentOptions: () => ({ provider, model: 'scripted', tools: [work], orchestrator: stepOrchestrator }),
});

if (mode === 'first') {
  const session = await manager.create({ id: 'killme' });
  session.prompt('do the work');
} else {
  const session = await manager.get('killme');
  const loaded = {
    id: session.id,
    status: session.status,
    lastSeq: session.lastSeq,
    messages: session.messages.slice(),
    problems: historyProblems(session.messages),
  };
  const result = await session.prompt('what now?').result();
  process.stdout.write(
    `${JSON.stringify({ loaded, next: { reason: result.terminateReason, text: result.text, problems: historyProblems(result.messages) } })}\n`,
  );
}
