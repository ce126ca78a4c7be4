import { defineTool } from '@agent-core/core';
import { expect, test } from 'vitest';
import { contentOfToolResult, toolKindOf, viewOfToolCall } from './tool-call-view.js';

test('the kind comes from the name when it says what the tool does, else from its risk; a read risk alone is other', () => {
  expect(
    [
      ['read_file', 'read'],
      ['write_file', 'write'],
      ['edit_file', 'write'],
      ['delete_branch', 'write'],
      ['rename_symbol', 'write'],
      ['grep', 'read'],
      ['glob', 'read'],
      ['list_files', 'read'],
      ['shell', 'execute'],
      ['web_fetch', 'network'],
      ['think', undefined],
      ['deploy', 'execute'],
      ['lookup', 'network'],
      ['calculator', 'read'],
      ['mystery', undefined],
    ].map(([name, risk]) => toolKindOf(name as string, risk as never)),
  ).toEqual([
    'read',
    'edit',
    'edit',
    'delete',
    'move',
    'search',
    'search',
    'search',
    'execute',
    'fetch',
    'think',
    'execute',
    'fetch',
    'other',
    'other',
  ]);
});

test('a file call has an absolute location (with its line) and a title naming the file', () => {
  const read = defineTool({
    name: 'read_file',
    description: 'r',
    risk: 'read',
    parameters: { type: 'object' },
    execute: () => '',
  });
  const view = viewOfToolCall(
    { type: 'toolCall', id: 'c1', name: 'read_file', input: { path: 'src/a.ts', offset: 12 } },
    read,
    '/work',
  );
  expect(view).toEqual({
    title: 'read_file: src/a.ts',
    kind: 'read',
    locations: [{ path: '/work/src/a.ts', line: 12 }],
  });
  const shell = viewOfToolCall(
    { type: 'toolCall', id: 'c2', name: 'shell', input: { command: 'npm   test\n-- --watch' } },
    undefined,
    '/work',
  );
  expect(shell).toEqual({ title: 'shell: npm test -- --watch', kind: 'execute', locations: [] });
  const long = viewOfToolCall(
    { type: 'toolCall', id: 'c3', name: 'grep', input: { pattern: 'x'.repeat(100) } },
    undefined,
    '/w',
  );
  expect(long.title).toHaveLength('grep: '.length + 60);
});

test('a successful edit shows a diff; a failed one and plain results show text and images', () => {
  const edit = {
    type: 'toolCall' as const,
    id: 'c1',
    name: 'edit_file',
    input: { path: 'a.ts', old_string: 'a', new_string: 'b' },
  };
  expect(contentOfToolResult(edit, 'Edited.', false, '/w')).toEqual([
    { type: 'diff', path: '/w/a.ts', oldText: 'a', newText: 'b' },
    { type: 'content', content: { type: 'text', text: 'Edited.' } },
  ]);
  expect(contentOfToolResult(edit, 'old_string was not found', true, '/w')).toEqual([
    { type: 'content', content: { type: 'text', text: 'old_string was not found' } },
  ]);
  const write = {
    type: 'toolCall' as const,
    id: 'c2',
    name: 'write_file',
    input: { path: '/abs/b.md', content: '# B' },
  };
  expect(contentOfToolResult(write, '', false, '/w')).toEqual([
    { type: 'diff', path: '/abs/b.md', newText: '# B' },
  ]);
  const shot = { type: 'toolCall' as const, id: 'c3', name: 'screenshot', input: {} };
  expect(
    contentOfToolResult(
      shot,
      [
        { type: 'text', text: 'here' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      false,
      '/w',
    ),
  ).toEqual([
    { type: 'content', content: { type: 'text', text: 'here' } },
    { type: 'content', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
  ]);
});
