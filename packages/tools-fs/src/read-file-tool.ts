import type { FileHandle } from 'node:fs/promises';
import { defineTool, type Tool } from '@agent-core/core';
import { z } from 'zod';
import { type FsToolsSettings, openWorkspace } from './fs-tools-settings.js';
import { binaryProbeBytes, formatBytes, looksBinary, readLines } from './text-file.js';

const readFileInput = z.object({
  path: z.string().describe('File path, relative to the workspace root (or absolute inside it).'),
  offset: z.number().int().min(1).optional().describe('First line to show, counting from 1. Default 1.'),
  limit: z.number().int().min(1).optional().describe('How many lines to show.'),
});

/** The input of `read_file`. */
export type ReadFileInput = z.infer<typeof readFileInput>;

// Past this size the lines after the shown range are not counted, to keep a read cheap.
const maxCountedBytes = 32 * 1024 * 1024;

function cutToBytes(text: string, bytes: number): string {
  const buffer = Buffer.from(text, 'utf8');
  if (buffer.length <= bytes) return text;
  let end = bytes;
  // Back off to a character boundary so the cut never shows a broken character.
  while (end > 0 && ((buffer[end] as number) & 0xc0) === 0x80) end--;
  return buffer.subarray(0, end).toString('utf8');
}

interface RenderOptions {
  display: string;
  size: number;
  first: number;
  count: number;
  maxBytes: number;
  signal: AbortSignal;
}

async function renderLines(handle: FileHandle, options: RenderOptions): Promise<string> {
  const shown: string[] = [];
  let shownBytes = 0;
  let lineNumber = 0;
  let last = 0;
  let cutByBytes = false;
  let cutLine = false;
  let counted = true;
  for await (const line of readLines(handle, options.signal, options.maxBytes)) {
    lineNumber++;
    if (lineNumber < options.first) continue;
    if (shown.length >= options.count || cutByBytes) {
      if (options.size > maxCountedBytes) {
        counted = false;
        break;
      }
      continue;
    }
    const rendered = `${String(lineNumber).padStart(6)}\t${line}`;
    const bytes = Buffer.byteLength(rendered) + 1;
    if (shownBytes + bytes > options.maxBytes) {
      cutByBytes = true;
      if (shown.length > 0) continue;
      shown.push(cutToBytes(rendered, options.maxBytes));
      cutLine = true;
      last = lineNumber;
      continue;
    }
    shown.push(rendered);
    shownBytes += bytes;
    last = lineNumber;
  }
  if (lineNumber === 0) return `[${options.display} is empty (0 lines).]`;
  if (options.first > lineNumber) {
    throw new Error(
      `offset ${options.first} is past the end of '${options.display}', which has ${lineNumber} lines; use an offset from 1 to ${lineNumber}.`,
    );
  }
  const notes: string[] = [];
  if (cutLine) {
    notes.push(
      `[Line ${last} is longer than the read cap of ${formatBytes(options.maxBytes)} and was cut; read_file cannot show the rest of it. Use grep to find text in it.]`,
    );
  }
  const more = !counted || last < lineNumber;
  if (more) {
    const total = counted ? `of ${lineNumber}` : `of a ${formatBytes(options.size)} file`;
    const reason = cutByBytes ? `; the output cap of ${formatBytes(options.maxBytes)} was reached` : '';
    notes.push(
      `[Showed lines ${options.first}-${last} ${total}${reason}. To read on, call read_file with offset=${last + 1}.]`,
    );
  }
  return [...shown, ...notes].join('\n');
}

/**
 * The `read_file` tool: shows a text file's lines, numbered (`     12\t...`;
 * the number and tab are not part of the file), from `offset` for `limit`
 * lines, within the byte cap, with a note saying how to read the rest.
 * Binary files (a NUL byte in the first 8000 bytes) are refused.
 */
export function readFileTool(settings: FsToolsSettings): Tool<ReadFileInput> {
  return defineTool({
    name: 'read_file',
    description:
      `Read a text file in the workspace. Each line is shown as its line number, a tab, then the text; the number and tab are not part of the file (leave them out of edit_file's old_string). ` +
      `Shows ${settings.maxReadLines} lines unless limit says otherwise, and never more than ${formatBytes(settings.maxReadBytes)} per call; use offset (first line, from 1) and limit (line count) to read other parts. Binary files are refused.`,
    parameters: readFileInput,
    risk: 'read',
    async execute({ path, offset, limit }, { signal }) {
      const workspace = await openWorkspace(settings);
      const entry = await workspace.resolveExisting(path);
      const handle = await workspace.openForRead(entry);
      try {
        if (await looksBinary(handle)) {
          throw new Error(
            `'${entry.display}' looks like a binary file (a NUL byte in its first ${binaryProbeBytes} bytes; ${formatBytes(entry.stats.size)} in all); read_file shows text files only.`,
          );
        }
        return await renderLines(handle, {
          display: entry.display,
          size: entry.stats.size,
          first: offset ?? 1,
          count: limit ?? settings.maxReadLines,
          maxBytes: settings.maxReadBytes,
          signal,
        });
      } finally {
        await handle.close();
      }
    },
  });
}
