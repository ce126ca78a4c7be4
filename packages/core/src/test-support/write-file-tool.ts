import { z } from 'zod';
import { defineTool } from '../index.js';

/**
 * A `write_file` tool of risk `write` that writes nothing: it pushes each path onto `writes`, so a
 * test counts the runs an approval allowed. `hang` makes it never finish, as in a process that stops
 * while it runs.
 */
export function writeFileTool(writes: string[], hang = false) {
  return defineTool({
    name: 'write_file',
    description: 'writes a file',
    risk: 'write',
    parameters: z.object({ path: z.string() }),
    execute: ({ path }) => {
      writes.push(path);
      return hang ? new Promise<string>(() => {}) : `wrote ${path}`;
    },
  });
}
