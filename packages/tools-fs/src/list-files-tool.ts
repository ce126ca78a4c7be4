import { defineTool, type Tool } from '@agent-core/core';
import { z } from 'zod';
import { type FsToolsSettings, openWorkspace } from './fs-tools-settings.js';
import { type TreeEntryKind, walkTree } from './walk-tree.js';

const listFilesInput = z.object({
  path: z
    .string()
    .optional()
    .describe('Directory to list, relative to the workspace root. Default: the root.'),
  depth: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('How many levels to show: 1 lists only the directory itself. Default 2, at most 20.'),
});

/** The input of `list_files`. */
export type ListFilesInput = z.infer<typeof listFilesInput>;

const defaultDepth = 2;
const deepestDepth = 20;

/** The marker after an entry's path: `/` directory, `@` symbolic link (not followed), `*` other (socket, FIFO, device). */
export function entryMarker(kind: TreeEntryKind): string {
  if (kind === 'directory') return '/';
  if (kind === 'symlink') return '@';
  if (kind === 'other') return '*';
  return '';
}

/**
 * The `list_files` tool: the entries under a directory, depth first and sorted
 * by name, one path (relative to the root) per line with a type marker,
 * honouring `.gitignore` files and skipping `.git` and `node_modules`, capped
 * at `maxEntries` with a note.
 */
export function listFilesTool(settings: FsToolsSettings): Tool<ListFilesInput> {
  return defineTool({
    name: 'list_files',
    description:
      `List the files and directories under a directory of the workspace, one path per line (relative to the root), sorted, with '/' after directories, '@' after symbolic links and '*' after other special files. ` +
      `Entries ignored by .gitignore files, .git and node_modules are left out. At most ${settings.maxEntries} entries per call.`,
    parameters: listFilesInput,
    risk: 'read',
    async execute({ path, depth }, { signal }) {
      const workspace = await openWorkspace(settings);
      const start = await workspace.resolveExisting(path ?? '.');
      if (!start.stats.isDirectory()) {
        throw new Error(`'${start.display}' is a file, not a directory; use read_file to read it.`);
      }
      const maxDepth = Math.min(depth ?? defaultDepth, deepestDepth);
      const lines: string[] = [];
      let truncated = false;
      for await (const entry of walkTree(workspace, start, {
        maxDepth,
        rootRules: settings.rootRules,
        signal,
      })) {
        if (lines.length === settings.maxEntries) {
          truncated = true;
          break;
        }
        lines.push(entry.display + entryMarker(entry.kind));
      }
      if (lines.length === 0) return `[${start.display} has no entries (after ignore rules).]`;
      if (truncated) {
        lines.push(
          `[Listed the first ${settings.maxEntries} entries; there are more. List a subdirectory, or use a smaller depth, to see the rest.]`,
        );
      }
      return lines.join('\n');
    },
  });
}
