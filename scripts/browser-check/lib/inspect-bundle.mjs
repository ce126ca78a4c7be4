// What must never reach a browser bundle of our packages: an import of a Node built-in module,
// and a reference to a global only Node defines. esbuild's metafile lists every import; the
// globals are found by `nodeGlobalDefines`, which makes esbuild put a marker wherever bundled
// code names one of them as a free variable, `typeof process` included (strings, comments,
// property names such as `globalThis.process` and local variables of that name are left alone:
// code that must reach a Node global where there is one reads it from `globalThis`).
import { builtinModules } from 'node:module';

/** The globals Node defines and browsers do not. */
export const nodeGlobals = ['process', 'Buffer', 'global', 'setImmediate', '__dirname', '__filename'];

const markerPrefix = '__agentCoreNodeGlobal_';

/** esbuild `define` entries that turn each free use of a Node global into a marker. */
export const nodeGlobalDefines = Object.fromEntries(
  nodeGlobals.map((name) => [name, `${markerPrefix}${name}`]),
);

/** Every Node built-in module name, bare and with `node:`; for esbuild's `external`, so imports of them stay visible. */
export const nodeBuiltins = [
  ...new Set([...builtinModules, ...builtinModules.map((name) => `node:${name.replace(/^node:/, '')}`)]),
];

/**
 * The problems of a bundle: each import of a Node built-in (or anything left external) with the
 * file that imports it, and each free use of a Node global with the file it comes from.
 * @param {{ inputs: Record<string, { imports: { path: string, external?: boolean }[] }> }} metafile
 * @param {string} code the bundle, not minified, so esbuild's `// path` comments name each module
 * @returns {string[]}
 */
export function bundleProblems(metafile, code) {
  const problems = [];
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const imported of input.imports) {
      if (imported.external === true || imported.path.startsWith('node:'))
        problems.push(`${file} imports ${imported.path}, which a browser does not have`);
    }
  }
  const marker = new RegExp(`${markerPrefix}(\\w+)`, 'g');
  for (const match of code.matchAll(marker)) {
    const before = code.slice(0, match.index);
    const module = [...before.matchAll(/^\/\/ (\S+\.[cm]?[jt]s)$/gm)].at(-1)?.[1] ?? 'the bundle';
    const line = before.split('\n').length;
    problems.push(`${module} uses the Node global \`${match[1]}\` (bundle line ${line})`);
  }
  return problems;
}
