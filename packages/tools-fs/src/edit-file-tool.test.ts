import { chmod, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { nodeFileSystemOperations } from './file-system-operations.js';
import { useSandbox, run } from './test-support/sandbox.js';

const box = useSandbox({ 'a.txt': 'one\ntwo\nthree\ntwo\n', 'unique.txt': 'alpha\nbeta\ngamma\n' });

const text = (path: string) => readFile(join(box.root, path), 'utf8');

test('write_file creates parent directories and reports what it did', async () => {
  const tools = box.tools();
  expect(await run(tools.write_file, { path: 'new/deep/file.txt', content: 'hello' })).toBe(
    "Created 'new/deep/file.txt' (5 bytes).",
  );
  expect(await text('new/deep/file.txt')).toBe('hello');
  expect(await run(tools.write_file, { path: 'new/deep/file.txt', content: 'héllo' })).toBe(
    "Wrote 'new/deep/file.txt' (6 bytes; the previous content was replaced).",
  );
  expect(await text('new/deep/file.txt')).toBe('héllo');
});

test('write_file is atomic: a new file replaces the old one by rename and no temporary file stays', async () => {
  const before = await stat(join(box.root, 'unique.txt'));
  await chmod(join(box.root, 'unique.txt'), 0o640);
  await run(box.tools().write_file, { path: 'unique.txt', content: 'replaced' });
  const after = await stat(join(box.root, 'unique.txt'));
  expect(after.ino).not.toBe(before.ino);
  expect(after.mode & 0o777).toBe(0o640);
  expect((await readdir(box.root)).sort()).toEqual(['a.txt', 'unique.txt']);
});

test('a write that fails before the rename leaves the old content and no temporary file', async () => {
  const tools = box.tools({
    operations: {
      rename: () => Promise.reject(Object.assign(new Error('disk full'), { code: 'ENOSPC' })),
    },
  });
  await expect(run(tools.write_file, { path: 'unique.txt', content: 'lost' })).rejects.toThrow('disk full');
  expect(await text('unique.txt')).toBe('alpha\nbeta\ngamma\n');
  expect((await readdir(box.root)).sort()).toEqual(['a.txt', 'unique.txt']);
});

test('the temporary file is made in the target directory with O_EXCL', async () => {
  const opened: string[] = [];
  const tools = box.tools({
    operations: {
      open(path, flags, mode) {
        opened.push(path);
        return nodeFileSystemOperations.open(path, flags, mode);
      },
    },
  });
  await run(tools.write_file, { path: 'dir/x.txt', content: 'x' });
  expect(opened).toHaveLength(1);
  expect(opened[0]).toMatch(new RegExp(`^${join(box.root, 'dir')}/\\.x\\.txt\\.[0-9a-f]{12}\\.tmp$`));
});

test('edit_file replaces the one exact match and says where', async () => {
  expect(
    await run(box.tools().edit_file, { path: 'unique.txt', old_string: 'beta\n', new_string: 'BETA\n' }),
  ).toBe("Edited 'unique.txt': replaced 1 match at line 2.");
  expect(await text('unique.txt')).toBe('alpha\nBETA\ngamma\n');
});

test('replacement text is literal, $& included', async () => {
  await run(box.tools().edit_file, { path: 'unique.txt', old_string: 'gamma', new_string: "$& $' $1" });
  expect(await text('unique.txt')).toBe("alpha\nbeta\n$& $' $1\n");
});

test('no match and several matches are errors that give the count and what to do', async () => {
  const tools = box.tools();
  await expect(run(tools.edit_file, { path: 'a.txt', old_string: 'four', new_string: '4' })).rejects.toThrow(
    "old_string was not found in 'a.txt' (0 matches). Read the file again and copy the text exactly",
  );
  await expect(run(tools.edit_file, { path: 'a.txt', old_string: 'two', new_string: '2' })).rejects.toThrow(
    "old_string matches 2 places in 'a.txt'; it must match exactly one. Add surrounding lines to old_string to make it unique.",
  );
  expect(await text('a.txt')).toBe('one\ntwo\nthree\ntwo\n');
});

test('an empty old_string creates a missing file, but never overwrites one', async () => {
  const tools = box.tools();
  expect(await run(tools.edit_file, { path: 'made/new.txt', old_string: '', new_string: 'fresh' })).toBe(
    "Created 'made/new.txt' (5 bytes).",
  );
  expect(await text('made/new.txt')).toBe('fresh');
  await expect(run(tools.edit_file, { path: 'a.txt', old_string: '', new_string: 'x' })).rejects.toThrow(
    "'a.txt' already exists and is not empty",
  );
  await expect(
    run(tools.edit_file, { path: 'missing.txt', old_string: 'x', new_string: 'y' }),
  ).rejects.toThrow(
    "'missing.txt' does not exist, so old_string cannot match. To create it, call edit_file with an empty old_string",
  );
});

test('same strings, binary files and directories are refused', async () => {
  await box.files({ 'bin.dat': new Uint8Array([1, 0, 2]) });
  const tools = box.tools();
  await expect(run(tools.edit_file, { path: 'a.txt', old_string: 'one', new_string: 'one' })).rejects.toThrow(
    'nothing to change',
  );
  await expect(run(tools.edit_file, { path: 'bin.dat', old_string: 'a', new_string: 'b' })).rejects.toThrow(
    'binary file',
  );
  await box.files({ 'dir/x.txt': 'x' });
  await expect(run(tools.write_file, { path: 'dir', content: 'x' })).rejects.toThrow('is not a regular file');
  await expect(run(tools.write_file, { path: '.', content: 'x' })).rejects.toThrow('is the workspace root');
  await expect(run(tools.write_file, { path: 'a.txt/inner.txt', content: 'x' })).rejects.toThrow(
    "A parent of 'a.txt/inner.txt' is a file, not a directory.",
  );
});
