import { SessionManager } from '@agent-core/core';
import { agentic } from '@agent-core/orchestrator-agentic';
import { mock } from '@agent-core/provider-mock';
import { PostgresSessionStore } from '@agent-core/store-postgres';

// One process of the contention workload: `postgres-contention-worker.js <url> <schema> <name> <sessions>
// <prompts> <seed>`. It prompts random sessions through its own SessionManager and prints one JSON line per
// attempt, { session, tag, outcome }, where outcome is 'completed' or the code the run ended with.

const [url = '', schema = '', name = '', sessionCount = '1', promptCount = '1', seed = '1'] =
  process.argv.slice(2);

const tagOf = (messages: readonly { role: string; content?: unknown }[]) => {
  const prompt = messages.findLast((message) => message.role === 'user');
  return typeof prompt?.content === 'string' ? prompt.content : '';
};
// A stateless model: it marks the last prompt's tag with the tool, then says it is done.
const provider = mock({
  chunkSize: 0,
  record: false,
  turns: (request) =>
    request.messages.at(-1)?.role === 'toolResult'
      ? { text: `done ${tagOf(request.messages)}` }
      : { toolCalls: [{ name: 'mark', input: { tag: tagOf(request.messages) } }] },
});
const mark = {
  name: 'mark',
  description: 'marks a tag',
  parameters: { type: 'object', properties: { tag: { type: 'string' } }, required: ['tag'] },
  execute: ({ tag }: { tag: string }) => `marked ${tag}`,
};

const store = new PostgresSessionStore({ connectionString: url, schema });
const manager = new SessionManager({
  store,
  agentOptions: () => ({ provider, model: 'mock', tools: [mark as never], orchestrator: agentic() }),
});

let state = Number(seed);
const random = () => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state / 2 ** 32;
};
const lines: string[] = [];
for (let prompt = 0; prompt < Number(promptCount); prompt++) {
  const id = `s${Math.floor(random() * Number(sessionCount))}`;
  const tag = `${name}-${prompt}`;
  // Always from the store: another process may have run the session since this one last did.
  manager.close(id);
  let outcome: string;
  try {
    const session = await manager.get(id);
    const result = await session.prompt(tag).result();
    outcome =
      result.terminateReason === 'completed' ? 'completed' : (result.error?.code ?? result.terminateReason);
  } catch (error) {
    outcome = `threw ${(error as { code?: string }).code ?? String(error)}`;
  }
  lines.push(JSON.stringify({ session: id, tag, outcome }));
}
process.stdout.write(`${lines.join('\n')}\n`);
await store.close();
