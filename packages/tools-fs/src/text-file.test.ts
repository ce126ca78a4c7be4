import { open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { useSandbox } from './test-support/sandbox.js';
import { formatBytes, readLines } from './text-file.js';

const box = useSandbox();

async function linesOf(content: string, maxLineLength?: number): Promise<string[]> {
  const path = join(box.root, 'file.txt');
  await writeFile(path, content);
  const handle = await open(path);
  try {
    const lines: string[] = [];
    for await (const line of readLines(handle, undefined, maxLineLength)) lines.push(line);
    return lines;
  } finally {
    await handle.close();
  }
}

test('lines without their breaks; CRLF and a missing final break are fine', async () => {
  expect(await linesOf('a\r\nb\n\nc')).toEqual(['a', 'b', '', 'c']);
  expect(await linesOf('a\n')).toEqual(['a']);
  expect(await linesOf('')).toEqual([]);
});

test('characters split across chunks stay whole', async () => {
  const line = 'é'.repeat(100_000);
  expect(await linesOf(`${line}\nnext`)).toEqual([line, 'next']);
});

test('an over-long line is cut and the rest skipped, keeping the line count right', async () => {
  const lines = await linesOf(`${'x'.repeat(300_000)}\nsecond\n${'y'.repeat(200_000)}`, 10);
  expect(lines).toEqual(['x'.repeat(10), 'second', 'y'.repeat(10)]);
});

test('formatBytes', () => {
  expect(formatBytes(512)).toBe('512 bytes');
  expect(formatBytes(64 * 1024)).toBe('64 KiB');
  expect(formatBytes(3.25 * 1024 * 1024)).toBe('3.3 MiB');
});
