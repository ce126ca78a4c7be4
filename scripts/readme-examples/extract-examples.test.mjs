import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractExamples, importedSpecifiers, packageOf } from './extract-examples.mjs';

const fence = '```';

test('every ts and typescript block is an example, with the line of its first code line', () => {
  const markdown = [
    '# Title',
    '',
    `${fence}sh`,
    'npm i x',
    fence,
    '',
    `${fence}ts`,
    "console.log('one');",
    fence,
    '',
    `${fence}typescript`,
    "console.log('two');",
    fence,
  ].join('\n');
  const examples = extractExamples(markdown);
  assert.deepEqual(
    examples.map(({ index, line, code, mode }) => ({ index, line, code, mode })),
    [
      { index: 1, line: 8, code: "console.log('one');\n", mode: 'run' },
      { index: 2, line: 12, code: "console.log('two');\n", mode: 'run' },
    ],
  );
});

test('a marker on the last non-blank line before the fence decides the mode', () => {
  const markdown = [
    '<!-- example:typecheck-only: needs a server -->',
    '',
    `${fence}ts`,
    'a;',
    fence,
    '<!-- example:skip: shows a type error on purpose -->',
    `${fence}ts`,
    'b;',
    fence,
    '<!-- example:run -->',
    `${fence}ts`,
    "import { openai } from '@agent-core/provider-openai';",
    fence,
    `${fence}ts`,
    "import { anthropic } from '@agent-core/provider-anthropic';",
    fence,
  ].join('\n');
  assert.deepEqual(
    extractExamples(markdown).map(({ mode, reason }) => ({ mode, reason })),
    [
      { mode: 'typecheck', reason: 'needs a server' },
      { mode: 'skip', reason: 'shows a type error on purpose' },
      { mode: 'run', reason: '' },
      { mode: 'typecheck', reason: 'imports @agent-core/provider-anthropic, which needs an API key' },
    ],
  );
});

test('a skip without a reason and a block never closed are refused', () => {
  assert.throws(() => extractExamples(`<!-- example:skip -->\n${fence}ts\nx;\n${fence}\n`), /needs a reason/);
  assert.throws(() => extractExamples(`${fence}ts\nx;\n`), /never closed/);
});

test('imports are found in every form, and named by package', () => {
  const code = [
    "import { Agent } from '@agent-core/core';",
    "import '@agent-core/orchestrator-agentic';",
    "import type { Tool } from '@agent-core/core/testing';",
    "const { z } = await import('zod/v4');",
    "import { readFile } from 'node:fs/promises';",
    "import { local } from './local.js';",
  ].join('\n');
  assert.deepEqual(importedSpecifiers(code), [
    '@agent-core/core',
    '@agent-core/orchestrator-agentic',
    '@agent-core/core/testing',
    'zod/v4',
  ]);
  assert.deepEqual(importedSpecifiers(code).map(packageOf), [
    '@agent-core/core',
    '@agent-core/orchestrator-agentic',
    '@agent-core/core',
    'zod',
  ]);
});
