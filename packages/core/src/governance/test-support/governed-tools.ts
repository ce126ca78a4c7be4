import { z } from 'zod';
import type { ToolResultMessage } from '../../index.js';
import { defineTool } from '../../index.js';

/** Tools of each risk that count their runs, for governance tests. */
export function countedTools() {
  const runs = { read_file: 0, write_file: 0, run_command: 0, fetch_url: 0 };
  const read = defineTool({
    name: 'read_file',
    description: 'reads a file',
    risk: 'read',
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => {
      runs.read_file++;
      return `contents of ${path}`;
    },
  });
  const write = defineTool({
    name: 'write_file',
    description: 'writes a file',
    risk: 'write',
    parameters: z.object({ path: z.string(), content: z.string() }),
    execute: ({ path }) => {
      runs.write_file++;
      return `wrote ${path}`;
    },
  });
  const command = defineTool({
    name: 'run_command',
    description: 'runs a command',
    risk: 'execute',
    parameters: z.object({ command: z.string() }),
    execute: ({ command }) => {
      runs.run_command++;
      return `ran ${command}`;
    },
  });
  const fetchUrl = defineTool({
    name: 'fetch_url',
    description: 'fetches a URL',
    parameters: z.object({ url: z.string() }),
    execute: ({ url }) => {
      runs.fetch_url++;
      return `fetched ${url}`;
    },
  });
  return { runs, tools: [read, write, command, fetchUrl], read, write, command, fetchUrl };
}

/** The tool results of a history, in order. */
export function resultsOf(messages: readonly { role: string }[]): ToolResultMessage[] {
  return messages.filter((message) => message.role === 'toolResult') as ToolResultMessage[];
}
