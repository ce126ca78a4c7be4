import { expect, test } from 'vitest';
import { useSandbox, run } from './test-support/sandbox.js';

const box = useSandbox({
  'src/a.ts': 'const TODO = 1;\nfunction main() {}\n// todo: later\n',
  'src/b.js': 'function helper() {}\n',
  'docs/notes.md': 'TODO write docs\n',
  'image.bin': new Uint8Array([0x54, 0x4f, 0x44, 0x4f, 0x00, 0x0a]),
  'ignored/x.ts': 'TODO hidden\n',
  'node_modules/pkg/index.js': 'TODO hidden\n',
  '.gitignore': 'ignored/\n',
});

test('prints path:line: text for each match, skipping binary and ignored files', async () => {
  expect(await run(box.tools().grep, { pattern: 'TODO' })).toBe(
    ['docs/notes.md:1: TODO write docs', 'src/a.ts:1: const TODO = 1;'].join('\n'),
  );
});

test('ignoreCase, a regular expression, and a single file as path', async () => {
  const tools = box.tools();
  expect(await run(tools.grep, { pattern: 'todo', ignoreCase: true, path: 'src/a.ts' })).toBe(
    'src/a.ts:1: const TODO = 1;\nsrc/a.ts:3: // todo: later',
  );
  expect(await run(tools.grep, { pattern: 'function\\s+\\w+\\(' })).toBe(
    'src/a.ts:2: function main() {}\nsrc/b.js:1: function helper() {}',
  );
});

test('glob filters file names, or paths when it has a slash', async () => {
  const tools = box.tools();
  expect(await run(tools.grep, { pattern: 'function', glob: '*.js' })).toBe(
    'src/b.js:1: function helper() {}',
  );
  expect(await run(tools.grep, { pattern: 'TODO', glob: 'docs/**' })).toBe(
    'docs/notes.md:1: TODO write docs',
  );
});

test('maxResults caps the matches with a note; the configured maximum caps maxResults', async () => {
  await box.files({ 'many.txt': Array.from({ length: 50 }, (_, index) => `hit ${index}`).join('\n') });
  const capped = (await run(box.tools().grep, { pattern: 'hit', maxResults: 3 })) as string;
  expect(capped.split('\n')).toEqual([
    'many.txt:1: hit 0',
    'many.txt:2: hit 1',
    'many.txt:3: hit 2',
    '[Stopped at 3 matches; there are more. Narrow the pattern, path or glob, or raise maxResults (at most 1000).]',
  ]);
  const limited = (await run(box.tools({ maxGrepResults: 5 }).grep, {
    pattern: 'hit',
    maxResults: 500,
  })) as string;
  expect(limited.split('\n')).toHaveLength(6);
  expect(limited).toContain('[Stopped at 5 matches;');
});

test('exactly maxResults matches gives no note', async () => {
  await box.files({ 'two.txt': 'hit\nhit\n' });
  expect(await run(box.tools().grep, { pattern: 'hit', maxResults: 2 })).toBe(
    'two.txt:1: hit\ntwo.txt:2: hit',
  );
});

test('no match, an invalid pattern and a too-large file', async () => {
  const tools = box.tools();
  expect(await run(tools.grep, { pattern: 'absent', path: 'src' })).toBe(
    "No matches for /absent/ in 'src' (2 file(s) searched).",
  );
  await expect(run(tools.grep, { pattern: 'a(b' })).rejects.toThrow(
    /not a valid JavaScript regular expression/,
  );
  await box.files({ 'big/large.txt': `${'x'.repeat(30)}\nneedle\n`, 'big/small.txt': 'hay\n' });
  expect(await run(box.tools({ maxFileBytes: 20 }).grep, { pattern: 'needle', path: 'big' })).toBe(
    "No matches for /needle/ in 'big' (1 file(s) searched).\n[Skipped 1 file(s) larger than 20 bytes.]",
  );
});

test('long lines are cut in the output', async () => {
  await box.files({ 'long.txt': `needle ${'x'.repeat(1000)}` });
  const output = (await run(box.tools().grep, { pattern: 'needle', path: 'long.txt' })) as string;
  expect(output.length).toBeLessThan(600);
  expect(output.endsWith('…')).toBe(true);
});

test('an aborted signal stops the search', async () => {
  const controller = new AbortController();
  controller.abort(new Error('stop'));
  await expect(run(box.tools().grep, { pattern: 'TODO' }, controller.signal)).rejects.toThrow('stop');
});
