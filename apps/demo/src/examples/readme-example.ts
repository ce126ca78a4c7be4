// The example of the root README, kept here so it is typechecked and run by the tests.
import { Agent, defineTool } from '@agent-core/core';
import '@agent-core/orchestrator-agentic'; // registers the default tool loop
import { mock } from '@agent-core/provider-mock';
import { z } from 'zod';

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
// A scripted model; anthropic() or openai() from their packages talk to a real one.
const provider = mock({
  turns: [{ toolCalls: [{ name: 'add', input: { a: 15, b: 30 } }] }, { text: 'It is 45.' }],
});
const agent = new Agent({ provider, model: 'mock', tools: [add] });

const run = agent.prompt('What is 15 + 30?');
for await (const event of run) {
  if (event.type === 'text_delta') process.stdout.write(event.delta);
  if (event.type === 'tool_call_end') console.log(`\n${event.toolCall.name} → ${String(event.result)}`);
}
console.log('\n', (await run.result()).terminateReason); // completed
