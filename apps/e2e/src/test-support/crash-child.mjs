// The process the crash-and-resume test kills: `crash-child.mjs <store> <where> <id> <ran-file> <steps>`,
// `<store>` `file` (`<where>` the root folder) or `postgres` (`<where>` `<url>#<schema>`). It opens
// session <id> (creating it the first time) and works through it until it is finished or this process
// is killed: every other tool call needs approval, which this process gives as a decision on resume,
// as another process deciding a stored pause would. Each tool appends its call id to <ran-file> when
// it runs, so the test counts executions outside the process. It prints `loaded <status>` once the
// session is loaded, `ran <call id>` after each tool ran, and `finished` at the end.
import { appendFileSync } from 'node:fs';
import { historyProblems, SessionManager } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { mock } from '@agent-core/provider-mock';
import { exitOnInvalidHistory, openStore } from './child-stores.mjs';

const [kind, where, id, ranFile, steps] = process.argv.slice(2);
const total = Number(steps);
const pause = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 4));

// A stateless model: the next call from the number of results so far, then an answer.
const provider = mock({
  chunkSize: 0,
  turns: (request) => {
    // Every request a model is sent must hold a history its API accepts.
    exitOnInvalidHistory(request.messages);
    const results = request.messages.filter((message) => message.role === 'toolResult').length;
    const latencyMs = Math.random() * 4;
    if (results >= total) return { text: `done after ${results}`, latencyMs };
    const name = results % 2 === 0 ? 'work' : 'deploy';
    return { toolCalls: [{ name, id: `c${results}`, input: { step: results, session: id } }], latencyMs };
  },
});

const tool = (name) => ({
  name,
  description: `${name}s one step`,
  parameters: { type: 'object', properties: { step: { type: 'number' }, session: { type: 'string' } } },
  async execute(input, context) {
    await pause();
    appendFileSync(ranFile, `${input.session} ${context.toolCallId}\n`);
    process.stdout.write(`ran ${context.toolCallId}\n`);
    await pause();
    return `${name} ${input.step} done`;
  },
});

// A short lease, so the next process takes over a killed one's session soon.
const store = await openStore(kind, where, { leaseDurationMs: 400 });
const manager = new SessionManager({
  store,
  agentOptions: () => ({
    provider,
    model: 'mock',
    tools: [tool('work'), tool('deploy')],
    orchestrator: agentic(),
    policy: { extends: 'permissive', tools: { deploy: 'ask' } },
  }),
});

async function load() {
  for (;;) {
    let session;
    try {
      session = await manager.get(id);
    } catch (error) {
      if (error.code !== 'session_not_found') throw error;
      return manager.create({ id });
    }
    // A killed process's lease has not lapsed yet (PostgreSQL): wait, then load again.
    if (session.status !== 'running') return session;
    manager.close(id);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let session = await load();
// A paused or interrupted run may end with calls that never started, left for resume(); nothing else.
const problems = historyProblems(session.messages, {
  allowPendingCalls: session.status === 'await_user' || session.status === 'interrupted',
});
if (problems.length > 0)
  throw new Error(
    `loaded an invalid history (${session.status}): ${JSON.stringify(problems)} ${JSON.stringify(session.messages)}`,
  );
// Calls that wait for a decision keep the session paused for its user, so approvals inboxes list it.
if (session.agent.pendingApprovals.length > 0 && session.status !== 'await_user')
  throw new Error(`loaded ${session.status} with approvals waiting: no approvals inbox would list it`);
process.stdout.write(`loaded ${session.status}\n`);
for (;;) {
  const last = session.messages.at(-1);
  if (last?.role === 'assistant' && last.stopReason === 'end_turn') break;
  const run =
    session.status === 'await_user'
      ? session.resume({
          decisions: session.agent.pendingApprovals.map((pending) => ({
            toolCallId: pending.toolCallId,
            inputHash: pending.inputHash,
            decision: 'allow',
          })),
        })
      : session.messages.length === 0
        ? session.prompt(`work through session ${id}`)
        : session.resume();
  const result = await run.result();
  if (result.error?.code === 'session_busy' || result.error?.code === 'approval_claimed') {
    // A killed process took the lease before it logged anything (PostgreSQL cannot tell it is gone
    // before the lease lapses; a run applying decisions reports that as claimed): nothing ran here.
    // Load again once it has lapsed, as the error says.
    manager.close(id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    session = await load();
    continue;
  }
  if (result.terminateReason !== 'completed' && result.terminateReason !== 'await_user')
    throw new Error(`the run ended ${result.terminateReason}: ${result.error?.message}`);
}
process.stdout.write('finished\n');
await store.close?.();
