import { defineTool } from '@agent-core/core';
import { z } from 'zod';

/** `add` with a zod schema and risk `read`: the smallest tool a model can call with typed input. */
export const addTool = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  risk: 'read',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});

/** `add` with a raw JSON Schema, as MCP servers give tools: the path that needs no zod. */
export const jsonSchemaAddTool = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  execute: (input) => String(Number(input.a) + Number(input.b)),
});

/** A tool that always throws `message`, for the paths where a tool fails and the loop goes on. */
export function failingTool(name = 'broken', message = 'disk on fire') {
  return defineTool({
    name,
    description: 'always fails',
    parameters: z.object({}),
    execute: () => {
      throw new Error(message);
    },
  });
}

/** `counter`, which counts its runs: `runs()` says how many times it ran (a call cut off must never run). */
export function countingTool() {
  let runs = 0;
  const tool = defineTool({
    name: 'counter',
    description: 'counts',
    parameters: z.object({ text: z.string().optional() }),
    execute: () => String(++runs),
  });
  return { tool, runs: () => runs };
}
