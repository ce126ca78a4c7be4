// `pnpm --filter @agent-core/bench bundle-size [-- --before <folder>]`: prints what core weighs
// in a one-file browser bundle (see bundle-size.ts), as the Markdown table of bench/README.md.
// `--before <folder>` adds the figures of another build of core, a copy of `packages/core`
// with its `dist`, made before a change.
import { type BundleSize, bundleCases, bytesByPackage, measureBundle } from './bundle-size.js';

const beforeIndex = process.argv.indexOf('--before');
const beforeFolder = beforeIndex === -1 ? undefined : process.argv[beforeIndex + 1];
if (beforeIndex !== -1 && beforeFolder === undefined) {
  console.error('--before needs the folder of a built copy of packages/core.');
  process.exit(1);
}

const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const size = (measured: BundleSize) => `${kilobytes(measured.bytes)} / ${kilobytes(measured.gzipBytes)}`;
const zodShare = (measured: BundleSize) => kilobytes(bytesByPackage(measured).get('zod') ?? 0);

/** Measures every case with one build of core; `adds` are the two "core adds to zod" rows. */
async function measureAll(coreFolder?: string) {
  const sizes = new Map<string, BundleSize>();
  for (const [key, bundleCase] of Object.entries(bundleCases))
    sizes.set(key, await measureBundle(bundleCase, coreFolder));
  const get = (key: keyof typeof bundleCases) => sizes.get(key) as BundleSize;
  const added = (key: 'zodTool' | 'zodWholeCore'): BundleSize => ({
    bytes: get(key).bytes - get('zodAlone').bytes,
    gzipBytes: get(key).gzipBytes - get('zodAlone').gzipBytes,
    modules: new Map(),
  });
  return { get, added };
}

const after = await measureAll();
const before = beforeFolder === undefined ? undefined : await measureAll(beforeFolder);
const header =
  before === undefined
    ? '| bundle | raw / gzip | of which zod (raw) |\n| --- | ---: | ---: |'
    : '| bundle | before: raw / gzip | after: raw / gzip | zod (raw) before → after |\n| --- | ---: | ---: | ---: |';
const rows: string[] = [];
for (const key of Object.keys(bundleCases) as (keyof typeof bundleCases)[]) {
  const now = after.get(key);
  const then = before?.get(key);
  rows.push(
    then === undefined
      ? `| ${bundleCases[key].name} | ${size(now)} | ${zodShare(now)} |`
      : `| ${bundleCases[key].name} | ${size(then)} | ${size(now)} | ${zodShare(then)} → ${zodShare(now)} |`,
  );
}
for (const [key, label] of [
  ['zodTool', 'what core adds to zod: an Agent with a zod tool'],
  ['zodWholeCore', "what core adds to zod: core's whole root entry"],
] as const) {
  const now = after.added(key);
  const then = before?.added(key);
  rows.push(
    then === undefined ? `| ${label} | ${size(now)} | |` : `| ${label} | ${size(then)} | ${size(now)} | |`,
  );
}
console.log(`${header}\n${rows.join('\n')}`);
