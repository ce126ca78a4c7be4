import { defineTool, type Tool } from '@agent-core/core';
import { z } from 'zod';
import { type FsToolsSettings, openWorkspace } from './fs-tools-settings.js';
import { writeAtomically } from './write-atomically.js';
import { formatBytes, looksBinary, readText } from './text-file.js';

const editFileInput = z.object({
  path: z.string().describe('File path, relative to the workspace root (or absolute inside it).'),
  old_string: z
    .string()
    .describe(
      'The exact text to replace; it must occur exactly once. Empty to create a file that does not exist.',
    ),
  new_string: z.string().describe('The text to put in its place.'),
});

/** The input of `edit_file`. */
export type EditFileInput = z.infer<typeof editFileInput>;

/** Counts non-overlapping occurrences of `needle` in `text`. */
export function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length))
    count++;
  return count;
}

/**
 * The `edit_file` tool: replaces the one exact occurrence of `old_string` in a
 * file with `new_string` and writes the file atomically. No match or several
 * matches is an error saying how many were found and what to do; an empty
 * `old_string` creates a file that does not exist yet (or fills an empty one).
 */
export function editFileTool(settings: FsToolsSettings): Tool<EditFileInput> {
  return defineTool({
    name: 'edit_file',
    description:
      'Edit a file in the workspace by exact string replacement: old_string must occur exactly once in the file (copy it from read_file output without the line-number prefix, whitespace included, with enough surrounding lines to be unique) and is replaced by new_string. ' +
      'With an empty old_string, creates a file that does not exist yet, with new_string as its content.',
    parameters: editFileInput,
    risk: 'write',
    async execute({ path, old_string: oldString, new_string: newString }, { signal }) {
      if (oldString === newString) {
        throw new Error('old_string and new_string are the same, so there is nothing to change.');
      }
      const workspace = await openWorkspace(settings);
      const target = await workspace.resolveForWrite(path);
      if (target.existing === undefined) {
        if (oldString !== '') {
          throw new Error(
            `'${target.display}' does not exist, so old_string cannot match. To create it, call edit_file with an empty old_string (or use write_file).`,
          );
        }
        const data = Buffer.from(newString, 'utf8');
        await writeAtomically(workspace, target, data, signal);
        return `Created '${target.display}' (${data.length} bytes).`;
      }
      if (target.existing.size > settings.maxFileBytes) {
        throw new Error(
          `'${target.display}' is ${formatBytes(target.existing.size)}, over the ${formatBytes(settings.maxFileBytes)} edit limit; edit_file cannot change it.`,
        );
      }
      const handle = await workspace.openForRead({
        display: target.display,
        real: target.real,
        stats: target.existing,
      });
      let text: string;
      try {
        if (await looksBinary(handle))
          throw new Error(`'${target.display}' looks like a binary file; edit_file edits text files only.`);
        text = await readText(handle, signal);
      } finally {
        await handle.close();
      }
      if (oldString === '' && text !== '') {
        throw new Error(
          `'${target.display}' already exists and is not empty; an empty old_string only creates files. Give the exact text to replace, or use write_file to replace the whole file.`,
        );
      }
      const matches = oldString === '' ? 1 : countOccurrences(text, oldString);
      if (matches === 0) {
        throw new Error(
          `old_string was not found in '${target.display}' (0 matches). Read the file again and copy the text exactly, whitespace and indentation included, without read_file's line-number prefixes.`,
        );
      }
      if (matches > 1) {
        throw new Error(
          `old_string matches ${matches} places in '${target.display}'; it must match exactly one. Add surrounding lines to old_string to make it unique.`,
        );
      }
      const index = text.indexOf(oldString);
      // Slices, not String.replace: '$&' and friends in new_string must stay literal.
      const updated = text.slice(0, index) + newString + text.slice(index + oldString.length);
      await writeAtomically(workspace, target, Buffer.from(updated, 'utf8'), signal);
      const line = text.slice(0, index).split('\n').length;
      return `Edited '${target.display}': replaced 1 match at line ${line}.`;
    },
  });
}
