// The scenarios the page runs, written as a user of the packed packages would in a browser app:
// plain imports of @agent-core/core, orchestrator-agentic and provider-mock, bundled by esbuild.
import {
  Agent,
  defineTool,
  historyProblems,
  MemorySessionStore,
  parseSessionState,
  SessionManager,
  toolCallsOf,
} from '@agent-core/core';
import { AgentExecutor, AgentRegistry, defineAgent } from '@agent-core/core/definitions';
import '@agent-core/orchestrator-agentic';
import { mock } from '@agent-core/provider-mock';
import { z } from 'zod';

/** A scenario resolves with a short summary of what it saw, or throws saying what went wrong. */
export type Scenario = () => Promise<string>;

function expect(condition: boolean, problem: string): void {
  if (!condition) throw new Error(problem);
}

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
// A raw JSON Schema, as MCP servers give: the path that needs no zod.
const shout = defineTool({
  name: 'shout',
  description: 'Upper-cases a text',
  parameters: {
    type: 'object',
    properties: { text: { type: 'string' } },
    required: ['text'],
  },
  execute: (input) => String(input.text).toUpperCase(),
});

async function toolLoop(): Promise<string> {
  const provider = mock({
    turns: [
      {
        toolCalls: [
          { name: 'add', input: { a: 15, b: 30 } },
          { name: 'shout', input: { text: 'done' } },
        ],
      },
      { text: '15 + 30 = 45.' },
    ],
  });
  const agent = new Agent({ provider, model: 'mock', tools: [add, shout] });
  const run = agent.prompt('What is 15 + 30?');
  const seen: string[] = [];
  for await (const event of run) seen.push(event.type);
  const result = await run.result();
  expect(result.terminateReason === 'completed', `ended ${result.terminateReason}: ${result.error?.message}`);
  expect(result.text === '15 + 30 = 45.', `answered ${JSON.stringify(result.text)}`);
  const outputs = result.toolCalls.map((call) => `${call.name}=${String(call.result)}`).join(' ');
  expect(outputs === 'add=45 shout=DONE', `tool results ${outputs}`);
  const sent = provider.requests[0]?.tools?.map((tool) => JSON.stringify(tool.parameters)) ?? [];
  expect(sent[0]?.includes('"a":{"type":"number"}') === true, `add was sent as ${sent[0]}`);
  expect(seen.includes('tool_call_end') && seen.at(-1) === 'agent_end', `events ${seen.join(', ')}`);
  return `${outputs}; ${seen.length} events iterated`;
}

async function sessions(): Promise<string> {
  const provider = mock({
    turns: [{ toolCalls: [{ name: 'add', input: { a: 2, b: 3 } }] }, { text: '2 + 3 = 5.' }],
  });
  const store = new MemorySessionStore();
  const manager = new SessionManager({
    store,
    agentOptions: () => ({ provider, model: 'mock', tools: [add] }),
  });
  const session = await manager.create();
  const result = await session.prompt('What is 2 + 3?').result();
  expect(result.text === '2 + 3 = 5.', `answered ${JSON.stringify(result.text)}`);
  const again = await manager.get(session.id);
  expect(again.messages.length === 4, `got back ${again.messages.length} messages, not 4`);
  // A store of the app's own (localStorage, IndexedDB) keeps JSON and checks it when reading it back.
  manager.close(session.id);
  const loaded = await manager.get(session.id);
  const parsed = await parseSessionState(JSON.parse(JSON.stringify(loaded.toJSON())), { source: 'the page' });
  expect(
    parsed.messages.length === 4 && parsed.status === 'idle',
    `parsed ${parsed.status}, ${parsed.messages.length} messages`,
  );
  let refused = '';
  try {
    await parseSessionState({ ...parsed, status: 'sleeping' }, { source: 'the page' });
  } catch (error) {
    refused = error instanceof Error ? error.message : String(error);
  }
  expect(refused.includes("field 'status'"), `a bad status was refused with: ${refused || 'nothing'}`);
  return `session ${session.id}: ${parsed.messages.length} messages stored, loaded and parsed`;
}

async function typedOutput(): Promise<string> {
  const reviewer = defineAgent({
    name: 'reviewer',
    description: 'Reviews one file and lists its problems',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the definitions' own template syntax
    promptConfig: { systemPrompt: 'Review ${file}.', query: 'Review ${file}.' },
    modelConfig: {
      provider: mock({
        turns: [
          { toolCalls: [{ name: 'complete_task', input: { summary: 'two issues', problems: ['a', 'b'] } }] },
        ],
      }),
      model: 'mock',
    },
    runConfig: { maxTurns: 5 },
    toolConfig: { tools: [] },
    inputConfig: { inputs: { file: { type: 'string' } } },
    outputConfig: { schema: z.object({ summary: z.string(), problems: z.array(z.string()) }) },
  });
  const executor = new AgentExecutor({ registry: new AgentRegistry().register(reviewer) });
  const result = await executor.execute(reviewer, { inputs: { file: 'a.ts' } });
  expect(result.outputValid === true, `outputValid ${String(result.outputValid)}: ${result.error?.message}`);
  // Typed from the schema: this line does not compile if `output` is not `{ summary; problems }`.
  const problems: string[] | undefined = result.output?.problems;
  expect(problems?.join() === 'a,b', `problems ${JSON.stringify(problems)}`);
  return `output ${JSON.stringify(result.output)}`;
}

async function approvals(): Promise<string> {
  const removeFolder = defineTool({
    name: 'remove_folder',
    description: 'Deletes a folder',
    risk: 'write',
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => `Removed ${path}.`,
  });
  const provider = mock({
    turns: [
      {
        toolCalls: [
          { name: 'remove_folder', input: { path: 'build' } },
          { name: 'remove_folder', input: { path: 'src' } },
        ],
      },
      { text: 'Removed build; src was kept.' },
    ],
  });
  const asked: string[] = [];
  const agent = new Agent({
    provider,
    model: 'mock',
    tools: [removeFolder],
    policy: () => 'ask',
    approve: (request) => {
      const path = String(request.input.path);
      asked.push(path);
      return path === 'build' ? 'allow' : { decision: 'deny', reason: 'src must stay' };
    },
  });
  const result = await agent.prompt('Clean up').result();
  expect(result.terminateReason === 'completed', `ended ${result.terminateReason}: ${result.error?.message}`);
  expect(asked.join() === 'build,src', `asked about ${asked.join()}`);
  const [allowed, denied] = result.toolCalls;
  expect(allowed?.result === 'Removed build.' && !allowed.isError, `build: ${String(allowed?.result)}`);
  const refusal = String(denied?.result);
  expect(denied?.isError === true && refusal.includes('src must stay'), `src: ${refusal}`);
  return `allowed build, denied src (${refusal})`;
}

async function abortMidTool(): Promise<string> {
  let toolStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => (toolStarted = resolve));
  const wait = defineTool({
    name: 'wait',
    description: 'Waits until stopped',
    parameters: z.object({}),
    execute: (_input, context) =>
      new Promise<string>((resolve) => {
        context.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
        toolStarted();
      }),
  });
  const provider = mock({ turns: [{ toolCalls: [{ name: 'wait', input: {} }] }, { text: 'never sent' }] });
  const agent = new Agent({ provider, model: 'mock', tools: [wait] });
  const run = agent.prompt('Wait');
  await started;
  run.abort();
  const result = await run.result();
  expect(result.terminateReason === 'aborted', `ended ${result.terminateReason}`);
  const problems = historyProblems(result.messages);
  expect(problems.length === 0, `history problems: ${problems.join('; ')}`);
  const calls = result.messages.flatMap((message) =>
    message.role === 'assistant' ? toolCallsOf(message) : [],
  );
  const answered = result.messages.filter((message) => message.role === 'toolResult');
  expect(calls.length === 1 && answered.length === 1, `${calls.length} calls, ${answered.length} results`);
  expect(provider.calls === 1, `the model was called ${provider.calls} times`);
  return `aborted with ${result.messages.length} messages, every call answered`;
}

/** By name, in the order the page runs them. */
export const scenarios: Record<string, Scenario> = {
  'tool loop': toolLoop,
  sessions: sessions,
  'typed output': typedOutput,
  'policy with an approver': approvals,
  'abort mid-tool': abortMidTool,
};
