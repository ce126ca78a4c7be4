// Core, the default tool loop and the scripted mock model: the README's example.
import assert from 'node:assert/strict';
import { Agent, defineTool, listOrchestrators, listProviders, listToolPacks } from '@agent-core/core';
import '@agent-core/orchestrator-agentic';
import { mock } from '@agent-core/provider-mock';
import { z } from 'zod';

assert.deepEqual([listProviders(), listOrchestrators(), listToolPacks()], [['mock'], ['agentic'], []]);

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
const provider = mock({
  turns: [{ toolCalls: [{ name: 'add', input: { a: 15, b: 30 } }] }, { text: 'It is 45.' }],
});
// No orchestrator given: importing orchestrator-agentic made it the default.
const agent = new Agent({ provider, model: 'mock', tools: [add] });

const run = agent.prompt('What is 15 + 30?');
let streamed = '';
for await (const event of run) {
  if (event.type === 'text_delta') streamed += event.delta;
}
const result = await run.result();
assert.equal(result.terminateReason, 'completed', result.error?.message);
assert.equal(result.text, 'It is 45.');
assert.equal(streamed, 'It is 45.');
assert.deepEqual(
  result.toolCalls.map((call) => [call.name, call.result]),
  [['add', '45']],
);
assert.equal(provider.requests.length, 2);
console.log(JSON.stringify({ text: result.text, turns: result.turns }));
