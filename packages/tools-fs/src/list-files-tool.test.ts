import { expect, test } from 'vitest';
import { useSandbox, run } from './test-support/sandbox.js';

const box = useSandbox({
  'b.txt': 'b',
  'a.txt': 'a',
  'src/index.ts': 'x',
  'src/deep/er/file.ts': 'x',
  '.git/HEAD': 'ref',
  'node_modules/pkg/index.js': 'x',
  'src/node_modules/x.js': 'x',
});

test('entries are sorted, depth first, with markers and paths relative to the root', async () => {
  await box.link('link.txt', 'a.txt');
  expect(await run(box.tools().list_files, { depth: 10 })).toBe(
    [
      'a.txt',
      'b.txt',
      'link.txt@',
      'src/',
      'src/deep/',
      'src/deep/er/',
      'src/deep/er/file.ts',
      'src/index.ts',
    ].join('\n'),
  );
});

test('depth limits how far the listing goes; the default is 2', async () => {
  const tools = box.tools();
  expect(await run(tools.list_files, { depth: 1 })).toBe('a.txt\nb.txt\nsrc/');
  expect(await run(tools.list_files, {})).toBe('a.txt\nb.txt\nsrc/\nsrc/deep/\nsrc/index.ts');
  expect(await run(tools.list_files, { path: 'src/deep', depth: 1 })).toBe('src/deep/er/');
});

test('.gitignore files apply: patterns, negation, directory-only, anchored, nested', async () => {
  await box.files({
    '.gitignore': '*.log\n!keep.log\nbuild/\n/top.txt\n',
    'app.log': 'x',
    'keep.log': 'x',
    'build/out.js': 'x',
    'build.txt': 'x',
    'top.txt': 'x',
    'src/top.txt': 'x',
    'src/.gitignore': 'deep/\n',
    'src/sub.log': 'x',
  });
  expect(await run(box.tools().list_files, { depth: 5 })).toBe(
    [
      '.gitignore',
      'a.txt',
      'b.txt',
      'build.txt',
      'keep.log',
      'src/',
      'src/.gitignore',
      'src/index.ts',
      'src/top.txt',
    ].join('\n'),
  );
});

test('ignore files above the listed directory still apply', async () => {
  await box.files({ '.gitignore': 'src/deep/er/\n' });
  expect(await run(box.tools().list_files, { path: 'src/deep' })).toBe(
    '[src/deep has no entries (after ignore rules).]',
  );
});

test('the ignore option adds rules from the root', async () => {
  expect(await run(box.tools({ ignore: ['src/', '*.txt', '!b.txt'] }).list_files, {})).toBe('b.txt');
});

test('the entry cap ends the list with a note', async () => {
  const output = (await run(box.tools({ maxEntries: 3 }).list_files, { depth: 10 })) as string;
  expect(output.split('\n')).toEqual([
    'a.txt',
    'b.txt',
    'src/',
    '[Listed the first 3 entries; there are more. List a subdirectory, or use a smaller depth, to see the rest.]',
  ]);
});

test('a file is not a directory', async () => {
  await expect(run(box.tools().list_files, { path: 'a.txt' })).rejects.toThrow(
    "'a.txt' is a file, not a directory; use read_file to read it.",
  );
});
