import type { FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';

/** How many leading bytes are checked for NUL bytes to call a file binary (as git does). */
export const binaryProbeBytes = 8000;
const chunkBytes = 64 * 1024;

/** True when the file's first bytes hold a NUL byte, the mark of a binary file. */
export async function looksBinary(handle: FileHandle): Promise<boolean> {
  const buffer = Buffer.alloc(binaryProbeBytes);
  const { bytesRead } = await handle.read(buffer, 0, binaryProbeBytes, 0);
  return buffer.subarray(0, bytesRead).includes(0);
}

/**
 * The file's lines, read in chunks from the start, without their line breaks
 * (`\n` or `\r\n`). A final line break does not start an extra empty line.
 * A line longer than `maxLineLength` characters is yielded cut to that length
 * (the rest is skipped), so a huge file without line breaks never fills memory.
 */
export async function* readLines(
  handle: FileHandle,
  signal?: AbortSignal,
  maxLineLength = Number.POSITIVE_INFINITY,
): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  const buffer = Buffer.alloc(chunkBytes);
  let position = 0;
  let pending = '';
  // True while skipping the rest of a line that was already yielded cut.
  let skipping = false;
  for (;;) {
    signal?.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    pending += decoder.write(buffer.subarray(0, bytesRead));
    let start = 0;
    for (let end = pending.indexOf('\n'); end !== -1; end = pending.indexOf('\n', start)) {
      if (!skipping) yield withoutCarriageReturn(pending.slice(start, end));
      skipping = false;
      start = end + 1;
    }
    pending = pending.slice(start);
    if (pending.length > maxLineLength) {
      if (!skipping) yield pending.slice(0, maxLineLength);
      skipping = true;
      pending = '';
    }
  }
  pending += decoder.end();
  if (pending !== '' && !skipping) yield withoutCarriageReturn(pending);
}

function withoutCarriageReturn(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** Reads a whole file as UTF-8 through its handle, from the start. */
export async function readText(handle: FileHandle, signal?: AbortSignal): Promise<string> {
  const chunks: Buffer[] = [];
  let position = 0;
  for (;;) {
    signal?.throwIfAborted();
    const buffer = Buffer.alloc(chunkBytes);
    const { bytesRead } = await handle.read(buffer, 0, chunkBytes, position);
    if (bytesRead === 0) break;
    chunks.push(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Formats a byte count for notes the model reads: `512 bytes`, `64 KiB`, `3.2 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
}
