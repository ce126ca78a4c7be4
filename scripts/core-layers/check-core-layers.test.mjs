import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const script = join(dirname(fileURLToPath(import.meta.url)), 'check-core-layers.mjs');

/** A source tree of the given files (path → text) in a fresh folder. */
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'core-layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const check = (root) => spawnSync(process.execPath, [script, root], { encoding: 'utf8' });

test('folders that import one way pass', () => {
  const result = check(
    tree({
      'messages/messages.ts': 'export type Message = { role: string };\n',
      'tool/tool.ts':
        "import type { Message } from '../messages/messages.js';\nexport type Tool = { last?: Message };\n",
      'index.ts': "export * from './tool/tool.js';\n",
    }),
  );
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /no import cycle/);
});

test('a cycle made only of type imports fails, naming the imports that close it', () => {
  const result = check(
    tree({
      'tool/tool.ts':
        "import type { Agent } from '../agent/agent.js';\nexport type Tool = { agent?: Agent };\n",
      'agent/agent.ts':
        "import type { Tool } from '../tool/tool.js';\nexport class Agent { tools: Tool[] = []; }\n",
    }),
  );
  assert.equal(result.status, 1);
  assert.match(result.stderr, /cycle: agent, tool/);
  assert.match(result.stderr, /tool\/tool\.ts -> agent\/agent\.ts/);
  assert.match(result.stderr, /agent\/agent\.ts -> tool\/tool\.ts/);
});

test('dynamic imports count, and imports inside comments and tests do not', () => {
  const dynamic = check(
    tree({
      'a/a.ts': "export const load = () => import('../b/b.js');\n",
      'b/b.ts': "import { load } from '../a/a.js';\nexport const again = load;\n",
    }),
  );
  assert.equal(dynamic.status, 1);
  const ignored = check(
    tree({
      'a/a.ts':
        "// import { b } from '../b/b.js';\n/* import type { B } from '../b/b.js' */\nexport const a = 1;\n",
      'a/a.test.ts': "import { b } from '../b/b.js';\n",
      'b/b.ts': "import { a } from '../a/a.js';\nexport const b = a;\n",
    }),
  );
  assert.equal(ignored.status, 0, ignored.stderr);
});
