// Core alone: the user brings their own model, tool and orchestrator.
import assert from 'node:assert/strict';
import {
  Agent,
  type AssistantMessage,
  defineTool,
  listOrchestrators,
  listProviders,
  listToolPacks,
  type ModelEvent,
  type ModelRequest,
  type Orchestrator,
  type Provider,
  toolCallsOf,
} from '@agent-core/core';
import { z } from 'zod';

// Only core is installed and imported: nothing is registered.
assert.deepEqual([listProviders(), listOrchestrators(), listToolPacks()], [[], [], []]);

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

// The user's own scripted model: it asks for `add`, then answers with the tool's result.
const scripted: Provider = {
  name: 'scripted',
  async *stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    const last = request.messages.at(-1);
    const message: AssistantMessage =
      last?.role === 'toolResult'
        ? {
            role: 'assistant',
            content: [{ type: 'text', text: `The sum is ${String(last.content)}.` }],
            stopReason: 'end_turn',
          }
        : {
            role: 'assistant',
            content: [{ type: 'toolCall', id: 'call-1', name: 'add', input: { a: 15, b: 30 } }],
            stopReason: 'tool_use',
          };
    yield { type: 'done', message };
  },
};

// The user's own orchestrator: call the model, run the tools it asks for, repeat.
const loop: Orchestrator = {
  name: 'my-loop',
  async run(context) {
    for (;;) {
      const stop = context.nextTurn();
      if (stop !== undefined) return { reason: stop };
      const response = await context.callModel();
      if (!response.ok) return { reason: response.reason, error: response.error };
      const calls = toolCallsOf(response.message);
      if (calls.length > 0) await context.executeTools(calls);
      context.endTurn(response.message);
      if (calls.length === 0) return { reason: 'completed' };
    }
  },
};

const agent = new Agent({ provider: scripted, model: 'scripted', tools: [add], orchestrator: loop });
const result = await agent.prompt('What is 15 + 30?').result();
assert.equal(result.terminateReason, 'completed', result.error?.message);
assert.equal(result.text, 'The sum is 45.');
assert.deepEqual(
  result.toolCalls.map((call) => [call.name, call.result]),
  [['add', '45']],
);
console.log(JSON.stringify({ text: result.text, turns: result.turns }));
