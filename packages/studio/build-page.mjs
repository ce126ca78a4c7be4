// Bundles the studio's page (Preact, marked and our code) into dist/page/ at build time, so the
// studio serves two files and loads nothing from the network when it runs.
import { mkdir, copyFile, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const folder = new URL('./dist/page/', import.meta.url);
await mkdir(folder, { recursive: true });
const built = await esbuild.build({
  entryPoints: [new URL('./src/page/main.tsx', import.meta.url).pathname],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['chrome110', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: true,
  legalComments: 'none',
  write: false,
  logLevel: 'warning',
});
const script = built.outputFiles[0]?.contents;
if (script === undefined) throw new Error('esbuild made no bundle of the studio page');
await writeFile(new URL('app.js', folder), script);
await copyFile(new URL('./src/page/style.css', import.meta.url), new URL('app.css', folder));
const gzipped = gzipSync(script).length;
// The page's JavaScript must stay small: the README states its weight and this keeps it true.
const budget = 150 * 1024;
if (gzipped > budget)
  throw new Error(
    `The studio page's JavaScript is ${gzipped} bytes gzipped, over its ${budget}-byte budget.`,
  );
console.log(`studio page: ${script.length} bytes, ${gzipped} gzipped`);
