import { join } from 'node:path';
import { ConfigError, getToolPack, listToolPacks } from '@agent-core/core';
import { afterEach, expect, test, vi } from 'vitest';
import { fsTools } from './index.js';
import { useSandbox, run } from './test-support/sandbox.js';

const box = useSandbox({ 'a.txt': 'hello\n' });
afterEach(() => {
  vi.restoreAllMocks();
});

test('the full set and its risks', () => {
  expect(fsTools({ root: box.root }).map((tool) => [tool.name, tool.risk])).toEqual([
    ['read_file', 'read'],
    ['list_files', 'read'],
    ['glob', 'read'],
    ['grep', 'read'],
    ['write_file', 'write'],
    ['edit_file', 'write'],
  ]);
});

test('readOnly leaves out the tools that write', () => {
  expect(fsTools({ root: box.root, readOnly: true }).map((tool) => tool.name)).toEqual([
    'read_file',
    'list_files',
    'glob',
    'grep',
  ]);
});

test('importing registers the fs pack, which builds the tools from options', async () => {
  expect(listToolPacks()).toContain('fs');
  const tools = getToolPack('fs', { root: box.root, readOnly: true });
  expect(tools.map((tool) => tool.name)).toEqual(['read_file', 'list_files', 'glob', 'grep']);
  expect(await run(tools[0], { path: 'a.txt' })).toBe('     1\thello');
});

test('importing reads no working directory; the root defaults to the cwd when the factory runs', async () => {
  vi.resetModules();
  const cwd = vi.spyOn(process, 'cwd');
  const module = await import('./index.js');
  expect(cwd).not.toHaveBeenCalled();
  cwd.mockReturnValue(box.root);
  const tools = module.fsTools();
  expect(cwd).toHaveBeenCalledTimes(1);
  cwd.mockReturnValue(join(box.root, 'elsewhere'));
  expect(await run(tools[0], { path: 'a.txt' })).toBe('     1\thello');
});

test('invalid options throw ConfigError at once', () => {
  expect(() => fsTools({ root: '' })).toThrow(ConfigError);
  expect(() => fsTools({ root: box.root, maxReadBytes: 0 })).toThrow(
    "fsTools option 'maxReadBytes' is 0; use a positive whole number.",
  );
  expect(() => fsTools({ root: box.root, maxEntries: 1.5 })).toThrow(ConfigError);
});

test('input schemas are zod, so core validates the model input', () => {
  const readFile = fsTools({ root: box.root })[0];
  const parameters = readFile?.parameters as { safeParse(value: unknown): { success: boolean } };
  expect(parameters.safeParse({ path: 'a.txt', offset: 0 }).success).toBe(false);
  expect(parameters.safeParse({ path: 'a.txt', offset: 2, limit: 5 }).success).toBe(true);
});
