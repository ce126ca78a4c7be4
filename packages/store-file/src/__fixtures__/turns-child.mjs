// Opens session <id> (creating it the first time) and works through it until it is done or this
// process is killed: the random-kill test's child. Each tool call appends its call id to
// <root>/ran.txt when it runs, so the test can count how often each call ran.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyProblems, SessionManager } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { FileSessionStore } from '../../dist/index.js';

const [root, id, steps] = process.argv.slice(2);
const total = Number(steps);

// A stateless model: one call per result so far until `total`, then an answer.
const provider = {
  name: 'scripted',
  async *stream(request) {
    const results = request.messages.filter((message) => message.role === 'toolResult').length;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 4));
    yield {
      type: 'done',
      message:
        results < total
          ? {
              role: 'assistant',
              content: [{ type: 'toolCall', id: `c${results}`, name: 'work', input: { step: results } }],
              stopReason: 'tool_use',
            }
          : {
              role: 'assistant',
              content: [{ type: 'text', text: `done after ${results}` }],
              stopReason: 'end_turn',
            },
    };
  },
};

const work = {
  name: 'work',
  description: 'does one step of work',
  parameters: { type: 'object', properties: { step: { type: 'number' } }, required: ['step'] },
  async execute({ step }, context) {
    appendFileSync(join(root, 'ran.txt'), `${context.toolCallId}\n`);
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 4));
    return `step ${step} done`;
  },
};

const manager = new SessionManager({
  store: new FileSessionStore({ root: join(root, 'sessions') }),
  agentOptions: () => ({ provider, model: 'scripted', tools: [work], orchestrator: stepOrchestrator }),
});

let session;
try {
  session = await manager.get(id);
} catch (error) {
  if (error.code !== 'session_not_found') throw error;
  session = await manager.create({ id });
}
const problems = historyProblems(session.messages);
if (problems.length > 0) throw new Error(`loaded an invalid history: ${JSON.stringify(problems)}`);
process.stdout.write(`loaded ${session.status}\n`);
const last = session.messages.at(-1);
const finished = last?.role === 'assistant' && last.stopReason === 'end_turn';
const run = finished ? undefined : session.messages.length === 0 ? session.prompt('work') : session.resume();
const result = run === undefined ? undefined : await run.result();
process.stdout.write(
  `${JSON.stringify({ reason: result?.terminateReason ?? 'finished', error: result?.error?.message })}\n`,
);
