import { expect, test } from 'vitest';
import { useSandbox, run } from './test-support/sandbox.js';

const box = useSandbox();

const lines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

test('shows every line numbered, without a note when the whole file fits', async () => {
  await box.files({ 'a.txt': 'alpha\nbeta\r\ngamma' });
  expect(await run(box.tools().read_file, { path: 'a.txt' })).toBe(
    ['     1\talpha', '     2\tbeta', '     3\tgamma'].join('\n'),
  );
});

test('offset and limit pick a range, and the note says how to read on', async () => {
  await box.files({ 'a.txt': `${lines(10)}\n` });
  const output = await run(box.tools().read_file, { path: 'a.txt', offset: 4, limit: 3 });
  expect(output).toBe(
    [
      '     4\tline 4',
      '     5\tline 5',
      '     6\tline 6',
      '[Showed lines 4-6 of 10. To read on, call read_file with offset=7.]',
    ].join('\n'),
  );
  expect(await run(box.tools().read_file, { path: 'a.txt', offset: 9 })).toBe(
    '     9\tline 9\n    10\tline 10',
  );
});

test('the default line limit applies when no limit is given', async () => {
  await box.files({ 'a.txt': lines(30) });
  const output = (await run(box.tools({ maxReadLines: 5 }).read_file, { path: 'a.txt' })) as string;
  expect(output.split('\n')).toHaveLength(6);
  expect(output).toContain('[Showed lines 1-5 of 30. To read on, call read_file with offset=6.]');
});

test('the byte cap truncates with a note that names the cap and the next offset', async () => {
  await box.files({ 'a.txt': lines(100) });
  const output = (await run(box.tools({ maxReadBytes: 100 }).read_file, { path: 'a.txt' })) as string;
  const shown = output.split('\n').filter((line) => !line.startsWith('['));
  expect(shown.join('\n').length).toBeLessThanOrEqual(100);
  expect(shown.at(-1)).toBe(`     ${shown.length}\tline ${shown.length}`);
  expect(output).toContain(
    `[Showed lines 1-${shown.length} of 100; the output cap of 100 bytes was reached. To read on, call read_file with offset=${shown.length + 1}.]`,
  );
});

test('a single line longer than the cap is cut on a character boundary, with a note', async () => {
  await box.files({ 'a.txt': `${'é'.repeat(200)}\nnext` });
  const output = (await run(box.tools({ maxReadBytes: 64 }).read_file, { path: 'a.txt' })) as string;
  const [first] = output.split('\n');
  expect(Buffer.byteLength(first as string)).toBeLessThanOrEqual(64);
  expect(first).not.toContain('\uFFFD');
  expect(output).toContain('[Line 1 is longer than the read cap of 64 bytes and was cut');
  expect(output).toContain('call read_file with offset=2');
});

test('binary files are refused with a clear note', async () => {
  await box.files({ 'image.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]) });
  await expect(run(box.tools().read_file, { path: 'image.png' })).rejects.toThrow(
    "'image.png' looks like a binary file (a NUL byte in its first 8000 bytes; 7 bytes in all); read_file shows text files only.",
  );
});

test('an empty file, a missing file, a directory and an offset past the end', async () => {
  await box.files({ 'empty.txt': '', 'dir/a.txt': 'a\nb\n' });
  const tools = box.tools();
  expect(await run(tools.read_file, { path: 'empty.txt' })).toBe('[empty.txt is empty (0 lines).]');
  await expect(run(tools.read_file, { path: 'nope.txt' })).rejects.toThrow(
    `'nope.txt' does not exist in the workspace root '${box.root}'`,
  );
  await expect(run(tools.read_file, { path: 'dir' })).rejects.toThrow("'dir' is a directory; use list_files");
  await expect(run(tools.read_file, { path: 'dir/a.txt', offset: 5 })).rejects.toThrow(
    "offset 5 is past the end of 'dir/a.txt', which has 2 lines",
  );
});

test('an aborted signal stops the read', async () => {
  await box.files({ 'a.txt': 'a\n' });
  const controller = new AbortController();
  controller.abort(new Error('stop'));
  await expect(run(box.tools().read_file, { path: 'a.txt' }, controller.signal)).rejects.toThrow('stop');
});
