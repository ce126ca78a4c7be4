import { defineTool, type Tool } from '@agent-core/core';
import { z } from 'zod';
import { type FsToolsSettings, openWorkspace } from './fs-tools-settings.js';
import { writeAtomically } from './write-atomically.js';

const writeFileInput = z.object({
  path: z.string().describe('File path, relative to the workspace root (or absolute inside it).'),
  content: z.string().describe('The complete new content of the file.'),
});

/** The input of `write_file`. */
export type WriteFileInput = z.infer<typeof writeFileInput>;

/**
 * The `write_file` tool: writes a whole file inside the workspace, creating
 * missing parent directories, atomically (a temporary file in the same
 * directory renamed over the target), keeping an existing file's permissions.
 */
export function writeFileTool(settings: FsToolsSettings): Tool<WriteFileInput> {
  return defineTool({
    name: 'write_file',
    description:
      'Write a file in the workspace, replacing its whole content (or creating it, with any missing parent directories). ' +
      'For a change to part of an existing file, prefer edit_file.',
    parameters: writeFileInput,
    risk: 'write',
    async execute({ path, content }, { signal }) {
      const workspace = await openWorkspace(settings);
      const target = await workspace.resolveForWrite(path);
      signal.throwIfAborted();
      const data = Buffer.from(content, 'utf8');
      await writeAtomically(workspace, target, data, signal);
      return target.existing === undefined
        ? `Created '${target.display}' (${data.length} bytes).`
        : `Wrote '${target.display}' (${data.length} bytes; the previous content was replaced).`;
    },
  });
}
