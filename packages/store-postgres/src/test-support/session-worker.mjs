// One worker process of the contention test: `session-worker.mjs <url> <schema> <name> <sessions> <prompts> <seed>`.
// It prompts random sessions through its own SessionManager and prints one JSON line per attempt:
// { session, tag, outcome } where outcome is 'completed' or the error code the run ended with.
import { SessionManager } from '@agent-core/core';
import { stepOrchestrator } from '@agent-core/core/testing';
import { mock } from '@agent-core/provider-mock';
import { PostgresSessionStore } from '../../dist/index.js';

const [url, schema, name, sessionCount, promptCount, seed] = process.argv.slice(2);

// A stateless model: it marks the last prompt's tag with the tool, then says it is done.
const tagOf = (request) => {
  const prompt = request.messages.findLast((message) => message.role === 'user');
  return typeof prompt?.content === 'string' ? prompt.content : '';
};
const provider = mock({
  chunkSize: 0,
  latencyMs: 2,
  turns: (request) =>
    request.messages.at(-1)?.role === 'toolResult'
      ? { text: `done ${tagOf(request)}` }
      : { toolCalls: [{ name: 'mark', input: { tag: tagOf(request) } }] },
});
const mark = {
  name: 'mark',
  description: 'marks a tag',
  parameters: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
  execute: ({ tag }) => `marked ${tag}`,
};

const store = new PostgresSessionStore({ connectionString: url, schema, maxConnections: 4 });
const manager = new SessionManager({
  store,
  agentOptions: () => ({ provider, model: 'mock', tools: [mark], orchestrator: stepOrchestrator }),
});

let state = Number(seed);
const random = () => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state / 2 ** 32;
};

for (let prompt = 0; prompt < Number(promptCount); prompt++) {
  const id = `s${Math.floor(random() * Number(sessionCount))}`;
  const tag = `${name}-${prompt}`;
  // Always from the store: another process may have run the session since this one last did.
  manager.close(id);
  let outcome;
  try {
    const session = await manager.get(id);
    const result = await session.prompt(tag).result();
    outcome =
      result.terminateReason === 'completed' ? 'completed' : (result.error?.code ?? result.terminateReason);
  } catch (error) {
    outcome = `threw ${error?.code ?? error}`;
  }
  process.stdout.write(`${JSON.stringify({ session: id, tag, outcome })}\n`);
}
await store.close();
