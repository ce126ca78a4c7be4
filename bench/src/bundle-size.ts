// What @agent-core/core weighs in a user's browser bundle: each case is a small program,
// bundled by esbuild into one minified ES module for the browser, as an app's build would,
// and measured raw and gzipped. Run by `bundle-size-report.ts`; `bundle-size.test.ts`
// checks what the bundles hold.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'esbuild';

/** One program to bundle. */
export interface BundleCase {
  name: string;
  /** The program's source: an ES module importing from `@agent-core/core` and `zod`. */
  source: string;
}

/** A bundle's size and what it is made of. */
export interface BundleSize {
  bytes: number;
  /** gzip at zlib's default level, as web servers send it. */
  gzipBytes: number;
  /** Bytes in the bundle by source module, paths from `node_modules/` on (`zod/v4/core/schemas.js`). */
  modules: Map<string, number>;
}

const benchFolder = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const jsonSchemaTool = `
import { Agent, defineTool } from '@agent-core/core';
const shout = defineTool({
  name: 'shout',
  description: 'Upper-cases a text',
  parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  execute: (input) => String(input.text).toUpperCase(),
});
export const makeAgent = (provider) => new Agent({ provider, model: 'any', tools: [shout] });
`;
// Appended to zodAlone, which imports zod.
const zodTool = `
import { Agent, defineTool } from '@agent-core/core';
const add = defineTool({
  name: 'add',
  description: 'Adds two numbers',
  parameters: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => String(a + b),
});
export const makeAgent = (provider) => new Agent({ provider, model: 'any', tools: [add] });
`;
const zodAlone = `
import { z } from 'zod';
export const user = z.object({ name: z.string(), age: z.number().int() });
`;

/** The cases, by what the README calls them; "zod alone" is the baseline of the two after it. */
export const bundleCases = {
  jsonSchemaTool: { name: 'core: an Agent with a JSON Schema tool', source: jsonSchemaTool },
  wholeCore: {
    name: "core: its whole root entry (export * from '@agent-core/core')",
    source: "export * from '@agent-core/core';",
  },
  zodAlone: { name: "zod alone (import { z } from 'zod', one schema)", source: zodAlone },
  zodTool: { name: 'zod + core: an Agent with a zod tool', source: `${zodAlone}${zodTool}` },
  zodWholeCore: {
    name: 'zod + core: its whole root entry',
    source: `${zodAlone}export * from '@agent-core/core';`,
  },
} satisfies Record<string, BundleCase>;

/** Resolves `@agent-core/core` (and its subpaths) to another build of it: a copy of `packages/core` with its `dist`. */
function coreFrom(folder: string): Plugin {
  return {
    name: 'core-from-folder',
    setup(builder) {
      builder.onResolve({ filter: /^@agent-core\/core$/ }, () => ({
        path: join(folder, 'dist', 'index.js'),
      }));
    },
  };
}

/**
 * Bundles one case for the browser and measures it. `coreFolder` measures another build of core
 * than the workspace's (a copy of `packages/core` made before a change); zod still comes from
 * this package's dependencies, so both builds are measured with the same zod.
 */
export async function measureBundle(bundleCase: BundleCase, coreFolder?: string): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: bundleCase.source, resolveDir: benchFolder, loader: 'js', sourcefile: 'case.js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
    nodePaths: [join(benchFolder, 'node_modules')],
    plugins: coreFolder === undefined ? [] : [coreFrom(resolve(coreFolder))],
  });
  const output = result.outputFiles[0];
  if (output === undefined) throw new Error(`esbuild wrote no bundle for "${bundleCase.name}"`);
  const modules = new Map<string, number>();
  for (const meta of Object.values(result.metafile.outputs)) {
    for (const [path, input] of Object.entries(meta.inputs)) {
      if (input.bytesInOutput === 0) continue;
      const shown = path.includes('node_modules/')
        ? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length)
        : path.replace(/^.*\/packages\/core\//, '@agent-core/core/');
      modules.set(shown, (modules.get(shown) ?? 0) + input.bytesInOutput);
    }
  }
  return { bytes: output.contents.length, gzipBytes: gzipSync(output.contents).length, modules };
}

/** Bytes of a bundle by package: `zod`, `@agent-core/core`, or the case's own code. */
export function bytesByPackage(size: BundleSize): Map<string, number> {
  const byPackage = new Map<string, number>();
  for (const [path, bytes] of size.modules) {
    const name = path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : (path.split('/')[0] ?? path);
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytes);
  }
  return byPackage;
}
