import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { Diff } from '@agentclientprotocol/sdk';
import type { ToolCallBlock } from '@agent-core/core';
import type { AcpClientAccess } from './serve-acp-options.js';
import { inputPath } from './tool-call-view.js';

/**
 * The diff a replay shows for a write or edit call: from its input alone
 * (the old file is not stored), for paths inside `cwd` as the live stream showed them.
 */
export function inputDiffOf(call: ToolCallBlock, cwd: string): Diff | undefined {
  if (!isEditCall(call)) return undefined;
  const path = resolve(cwd, inputPath(call.input) as string);
  if (!within(path, cwd)) return undefined;
  const { content, old_string: oldString, new_string: newString } = call.input;
  if (typeof content === 'string') return { path, newText: content };
  return oldString === ''
    ? { path, newText: newString as string }
    : { path, oldText: oldString as string, newText: newString as string };
}

/** A file larger than this gets no whole-file diff: an editor would not show it well, and reading it costs. */
const maxPreviewBytes = 1024 * 1024;

/**
 * Reads a file's text as the editor has it, or undefined when there is no
 * such file. The server reads through the editor's `fs/read_text_file` when
 * the editor declared it (unsaved buffers included), else from disk.
 */
export type ReadCurrentText = (path: string) => Promise<string | undefined>;

/** True for a call whose input says it writes a file: a path with `content`, or with `old_string` and `new_string`. */
export function isEditCall(call: ToolCallBlock): boolean {
  const { content, old_string: oldString, new_string: newString } = call.input;
  if (inputPath(call.input) === undefined) return false;
  return typeof content === 'string' || (typeof oldString === 'string' && typeof newString === 'string');
}

/**
 * The diff a write or edit call would make, before it runs: the file as it
 * is now (`oldText`, absent for a new file) and as the call leaves it
 * (`newText`). `write_file`-style calls (`content`) replace the whole file;
 * `edit_file`-style calls (`old_string` / `new_string`) replace the one
 * occurrence, and show the two strings alone when they do not match exactly
 * once. Paths outside `cwd` get no diff: the tool refuses them, and their
 * text is never read. Never rejects.
 */
export async function editDiffOf(
  call: ToolCallBlock,
  cwd: string,
  read: ReadCurrentText,
): Promise<Diff | undefined> {
  if (!isEditCall(call)) return undefined;
  const path = resolve(cwd, inputPath(call.input) as string);
  let current: string | undefined;
  try {
    if (!(await insideFolder(path, cwd))) return undefined;
    current = await read(path);
  } catch {
    current = undefined;
  }
  const { content, old_string: oldString, new_string: newString } = call.input;
  if (typeof content === 'string') {
    return current === undefined ? { path, newText: content } : { path, oldText: current, newText: content };
  }
  const before = oldString as string;
  const after = newString as string;
  if (current === undefined)
    return before === '' ? { path, newText: after } : { path, oldText: before, newText: after };
  const index = before === '' ? (current === '' ? 0 : -1) : current.indexOf(before);
  if (index === -1 || (before !== '' && current.indexOf(before, index + before.length) !== -1))
    return { path, oldText: before, newText: after };
  // Slices, not String.replace: '$&' in the new text must stay literal.
  return {
    path,
    oldText: current,
    newText: current.slice(0, index) + after + current.slice(index + before.length),
  };
}

/** Reads a file from disk: undefined when it does not exist or is not a regular file; too large throws. */
export async function readDiskText(path: string): Promise<string | undefined> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) return undefined;
    size = info.size;
  } catch {
    return undefined;
  }
  if (size > maxPreviewBytes) throw new Error(`${path} is too large to preview`);
  return readFile(path, 'utf8');
}

/** Whether `path` is inside `folder`, symbolic links resolved for the part of it that exists. */
async function insideFolder(path: string, folder: string): Promise<boolean> {
  if (!within(path, folder)) return false;
  const root = await realpath(folder).catch(() => folder);
  let existing = path;
  for (;;) {
    try {
      return within(await realpath(existing), root);
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return false;
      existing = parent;
    }
  }
}

/** Whether `path` is `folder` or below it, by its text alone (no link followed). */
export function within(path: string, folder: string): boolean {
  const difference = relative(folder, path);
  return difference === '' || (!difference.startsWith('..') && !isAbsolute(difference));
}

/** Limits a reader to files no larger than an editor preview takes. */
export function previewSized(read: ReadCurrentText): ReadCurrentText {
  return async (path) => {
    const text = await read(path);
    if (text !== undefined && text.length > maxPreviewBytes)
      throw new Error(`${path} is too large to preview`);
    return text;
  };
}

/**
 * How the server reads a session's files for diffs: the editor's buffer when
 * it declared `fs.readTextFile` (unsaved changes included), else the disk; a
 * file the editor does not have is read from disk too.
 */
export function editorTextReader(access: AcpClientAccess): ReadCurrentText {
  return previewSized(async (path) => {
    if (access.capabilities.fs?.readTextFile === true) {
      try {
        return await access.readTextFile(path);
      } catch {}
    }
    return readDiskText(path);
  });
}
