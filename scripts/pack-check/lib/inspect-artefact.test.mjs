// The artefact rules on small in-memory tarballs: each rule must catch the
// mistake it exists for, and a correct plugin must pass them all.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { registrationsOf } from './combinations.mjs';
import { inspectArtefact } from './inspect-artefact.mjs';

const plugin = { name: '@agent-core/tools-example', dir: 'packages/tools-example', isApp: false };

/** A tarball like `pnpm pack` makes of a correct plugin, with `change` applied to its manifest and files. */
function tarball(change = (/** @type {any} */ _manifest, /** @type {Map<string, string>} */ _files) => {}) {
  const manifest = {
    name: '@agent-core/tools-example',
    version: '0.1.0',
    description: 'An example tool pack.',
    license: 'MIT',
    type: 'module',
    sideEffects: ['./dist/register.js', './dist/index.js'],
    engines: { node: '>=20.19' },
    keywords: ['agent'],
    repository: {
      type: 'git',
      url: 'git+https://example.invalid/agent-core.git',
      directory: 'packages/tools-example',
    },
    exports: {
      '.': { types: './dist/index.d.ts', import: './dist/index.js', default: './dist/index.js' },
      './package.json': './package.json',
    },
    main: './dist/index.js',
    types: './dist/index.d.ts',
    peerDependencies: { '@agent-core/core': '^0.1.0', zod: '^4.1.0' },
  };
  const files = new Map([
    ['README.md', "# example\n\nCommonJS: `require('@agent-core/tools-example')`.\n"],
    ['dist/index.js', "import './register.js';\nexport { exampleTools } from './example-tools.js';\n"],
    ['dist/index.d.ts', "export { exampleTools } from './example-tools.js';\n"],
    [
      'dist/register.js',
      "import { registerToolPack } from '@agent-core/core';\nregisterToolPack('example', () => []);\n",
    ],
    ['dist/example-tools.js', 'export function exampleTools() { return []; }\n'],
    ['dist/example-tools.js.map', JSON.stringify({ version: 3, sources: ['../src/example-tools.ts'] })],
    ['src/example-tools.ts', 'export function exampleTools() { return []; }\n'],
  ]);
  change(manifest, files);
  files.set('package.json', JSON.stringify(manifest));
  return {
    file: 'example.tgz',
    bytes: 0,
    integrity: '',
    shasum: '',
    manifest,
    files: new Map(
      [...files].map(([path, text]) => [path, { path, size: text.length, content: Buffer.from(text) }]),
    ),
  };
}

const problems = (/** @type {Parameters<typeof tarball>[0]} */ change) =>
  inspectArtefact(plugin, /** @type {any} */ (tarball(change)), '0.1.0');

describe('inspectArtefact', () => {
  test('a correct plugin passes', () => {
    assert.deepEqual(problems(), []);
  });

  test('a workspace: range left in the packed manifest is caught', () => {
    const found = problems((manifest) => {
      manifest.peerDependencies['@agent-core/core'] = 'workspace:^';
    });
    assert.ok(found.some((problem) => problem.includes('"workspace:^" in the tarball')));
  });

  test('a peer range on core other than ^<core version> is caught', () => {
    const found = problems((manifest) => {
      manifest.peerDependencies['@agent-core/core'] = '*';
    });
    assert.ok(found.some((problem) => problem.includes('expected "^0.1.0"')));
  });

  test('a plugin that depends on another plugin is caught', () => {
    const found = problems((manifest) => {
      manifest.dependencies = { '@agent-core/provider-mock': '^0.1.0' };
    });
    assert.ok(found.some((problem) => problem.includes('must not depend on other plugins')));
  });

  test('an export without types, types not first, or no condition for require() is caught', () => {
    assert.ok(
      problems((manifest) => {
        manifest.exports['.'] = { import: './dist/index.js', default: './dist/index.js' };
      }).some((problem) => problem.includes('must list "types" first')),
    );
    assert.ok(
      problems((manifest) => {
        manifest.exports['./extra'] = './dist/example-tools.js';
      }).some((problem) => problem.includes('has no "types" condition')),
    );
    assert.ok(
      problems((manifest) => {
        manifest.exports['.'] = { types: './dist/index.d.ts', import: './dist/index.js' };
      }).some((problem) => problem.includes('no condition that require() matches')),
    );
  });

  test('an export target missing from the tarball is caught', () => {
    const found = problems((_manifest, files) => {
      files.delete('dist/index.d.ts');
    });
    assert.ok(found.some((problem) => problem.includes('./dist/index.d.ts, not in the tarball')));
  });

  test('tests, fixtures and test support files are caught', () => {
    const found = problems((_manifest, files) => {
      files.set('dist/example-tools.test.js', '');
      files.set('src/__fixtures__/reply.txt', '');
      files.set('src/test-support/server.ts', '');
    });
    assert.equal(found.filter((problem) => problem.includes('is a test or fixture file')).length, 3);
  });

  test('a source map whose source is not shipped is caught', () => {
    const found = problems((_manifest, files) => {
      files.delete('src/example-tools.ts');
    });
    assert.equal(found.length, 1);
    assert.match(
      found[0] ?? '',
      /^dist\/example-tools\.js\.map refers to src\/example-tools\.ts, which is not in the tarball/,
    );
  });

  test('a registering module missing from sideEffects is caught, and so is the index that imports it', () => {
    const found = problems((manifest) => {
      manifest.sideEffects = false;
    });
    assert.deepEqual(found.sort(), [
      'dist/index.js registers a plugin when imported but is not listed in sideEffects',
      'dist/register.js registers a plugin when imported but is not listed in sideEffects',
    ]);
  });

  test('a README that does not tell CommonJS users how to load the package is caught', () => {
    const found = problems((_manifest, files) => {
      files.set('README.md', '# example\n');
    });
    assert.ok(found.some((problem) => problem.includes('CommonJS')));
  });

  test('core must depend on zod only', () => {
    const core = tarball((manifest) => {
      manifest.name = '@agent-core/core';
      manifest.repository.directory = 'packages/core';
      manifest.sideEffects = false;
      manifest.peerDependencies = undefined;
      manifest.dependencies = { zod: '^4.1.0', 'left-pad': '^1.0.0' };
    });
    core.files.delete('dist/register.js');
    const found = inspectArtefact(
      { name: '@agent-core/core', dir: 'packages/core', isApp: false },
      /** @type {any} */ (core),
      '0.1.0',
    );
    assert.deepEqual(found, ['core must depend on zod only, has: zod, left-pad']);
  });
});

describe('registrationsOf', () => {
  test('reads the names a package registers from its packed JavaScript', () => {
    assert.deepEqual(registrationsOf(/** @type {any} */ (tarball())), {
      providers: [],
      orchestrators: [],
      toolPacks: ['example'],
    });
  });
});
