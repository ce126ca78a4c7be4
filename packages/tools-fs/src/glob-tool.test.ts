import { expect, test } from 'vitest';
import { useSandbox, run } from './test-support/sandbox.js';

const box = useSandbox({
  'README.md': 'x',
  'package.json': 'x',
  'src/index.ts': 'x',
  'src/util.ts': 'x',
  'src/util.test.ts': 'x',
  'src/lib/a.js': 'x',
  'src/lib/b.ts': 'x',
  'docs/a.md': 'x',
  'docs/c.md': 'x',
  'dist/index.js': 'x',
  'node_modules/pkg/index.ts': 'x',
  '.gitignore': 'dist/\n',
});

test.each([
  ['*.md', 'README.md'],
  ['**/*.ts', 'src/index.ts\nsrc/lib/b.ts\nsrc/util.test.ts\nsrc/util.ts'],
  ['src/*.ts', 'src/index.ts\nsrc/util.test.ts\nsrc/util.ts'],
  ['src/**/*.{js,json}', 'src/lib/a.js'],
  ['*.{md,json}', 'README.md\npackage.json'],
  ['docs/[a-b].md', 'docs/a.md'],
  ['src/util?ts', 'src/util.ts'],
  ['src/*', 'src/index.ts\nsrc/lib/\nsrc/util.test.ts\nsrc/util.ts'],
  ['**/index.*', 'src/index.ts'],
])('%s', async (pattern, expected) => {
  expect(await run(box.tools().glob, { pattern })).toBe(expected);
});

test('path sets where the pattern starts', async () => {
  expect(await run(box.tools().glob, { pattern: '*.ts', path: 'src/lib' })).toBe('src/lib/b.ts');
});

test('no match says so', async () => {
  const tools = box.tools();
  expect(await run(tools.glob, { pattern: '**/*.py' })).toBe("No paths match '**/*.py' under '.'.");
  expect(await run(tools.glob, { pattern: 'missing/**/*.py' })).toBe(
    "No paths match 'missing/**/*.py' under '.'.",
  );
});

test('results are capped with a note', async () => {
  const output = (await run(box.tools({ maxEntries: 2 }).glob, { pattern: '**/*.ts' })) as string;
  expect(output.split('\n')).toEqual([
    'src/index.ts',
    'src/lib/b.ts',
    '[Showed the first 2 matches; there are more. Use a narrower pattern or path.]',
  ]);
});

test('the scan cap stops a walk over a huge tree with a note', async () => {
  const output = (await run(box.tools({ maxScanEntries: 3 }).glob, { pattern: '**/*.py' })) as string;
  expect(output).toContain('[Stopped after visiting 3 entries');
});
