import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import * as esbuild from 'esbuild';
import { bundleProblems, nodeBuiltins, nodeGlobalDefines } from './inspect-bundle.mjs';

const folder = mkdtempSync(join(tmpdir(), 'browser-check-inspect-'));
after(() => rmSync(folder, { recursive: true, force: true }));

/** Bundles `files` (the first is the entry) as the check does, and returns the problems found. */
async function problemsOf(files) {
  for (const [name, source] of Object.entries(files)) writeFileSync(join(folder, name), source);
  const built = await esbuild.build({
    entryPoints: [join(folder, Object.keys(files)[0])],
    absWorkingDir: folder,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    metafile: true,
    external: nodeBuiltins,
    define: nodeGlobalDefines,
    logLevel: 'silent',
  });
  return bundleProblems(built.metafile, built.outputFiles[0]?.text ?? '');
}

test('a bundle of browser-safe code has no problems', async () => {
  const problems = await problemsOf({
    'entry.js': [
      "import { write } from './logger.js';",
      'const process = (text) => text.trim(); // a local of that name is fine',
      "write(process(' runs in another process, with a Buffer '));",
    ].join('\n'),
    'logger.js': 'export const write = (text) => globalThis.process?.stderr?.write(text);\n',
  });
  assert.deepEqual(problems, []);
});

test('names the file that imports a Node module, with or without node:', async () => {
  const problems = await problemsOf({
    'entry.js': "import './files.js';\nimport { hostname } from 'os';\nconsole.log(hostname());\n",
    'files.js': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
  });
  assert.deepEqual(problems.sort(), [
    'entry.js imports os, which a browser does not have',
    'files.js imports node:fs, which a browser does not have',
  ]);
});

test('names the file that uses process or Buffer as a global', async () => {
  const problems = await problemsOf({
    'entry.js': "import { bytes } from './bytes.js';\nconsole.log(bytes, process.env.HOME);\n",
    'bytes.js': "export const bytes = Buffer.from('hi');\n",
  });
  assert.equal(problems.length, 2);
  assert.match(problems[0] ?? '', /^bytes\.js uses the Node global `Buffer`/);
  assert.match(problems[1] ?? '', /^entry\.js uses the Node global `process`/);
});
