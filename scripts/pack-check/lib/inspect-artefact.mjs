// The rules a packed package must follow to work for a user who installs it from
// the registry: complete metadata, no workspace-only ranges, an exports map with
// types, only the files users need, honest sideEffects.
import { posix } from 'node:path';

const dependencyFields = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];
const testFile = /(^|\/)[^/]*\.test\.[cm]?[jt]sx?(\.map)?$|(^|\/)[^/]*\.test\.d\.[cm]?ts(\.map)?$/;
const testFolder = /(^|\/)(__fixtures__|__tests__|test-support|fixtures)\//;
const registerCall = /^(?:registerProvider|registerOrchestrator|registerToolPack|setDefaultOrchestrator)\(/m;

/**
 * @typedef {import('./read-tarball.mjs').Tarball} Tarball
 * @typedef {{ name: string, dir: string, isApp: boolean }} PublicPackage
 */

/**
 * Every rule the tarball breaks, as sentences that say what to fix.
 * @param {PublicPackage} pkg
 * @param {Tarball} tarball
 * @param {string} coreVersion
 * @returns {string[]}
 */
export function inspectArtefact(pkg, tarball, coreVersion) {
  const problems = [];
  const manifest = tarball.manifest;
  const has = (/** @type {string} */ path) => tarball.files.has(path.replace(/^\.\//, ''));

  // Metadata a registry page and `npm i` rely on.
  if (manifest.license !== 'MIT')
    problems.push(`"license" is ${JSON.stringify(manifest.license)}, expected "MIT"`);
  if (manifest.type !== 'module') problems.push('"type" must be "module" (the packages are ESM)');
  if (typeof manifest.engines?.node !== 'string') problems.push('"engines.node" is missing');
  if (typeof manifest.description !== 'string' || manifest.description === '')
    problems.push('"description" is missing');
  if (!Array.isArray(manifest.keywords) || manifest.keywords.length === 0)
    problems.push('"keywords" is missing');
  const repository = manifest.repository;
  if (typeof repository?.url !== 'string' || repository.directory !== pkg.dir)
    problems.push(`"repository" needs "url" and "directory": "${pkg.dir}"`);
  if (manifest.sideEffects === undefined) problems.push('"sideEffects" is missing');
  const readme = tarball.files.get('README.md')?.content.toString('utf8');
  if (readme === undefined) problems.push('README.md is not in the tarball');
  else if (!pkg.isApp && !readme.includes('require('))
    problems.push(
      "README.md does not tell CommonJS users how to load the package (`require('...')` on Node 20.19+)",
    );

  // Ranges a user's npm can resolve.
  for (const field of dependencyFields) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (/^(workspace|catalog|link|file):/.test(String(range)))
        problems.push(`${field}.${name} is "${range}" in the tarball: npm cannot resolve it`);
    }
  }
  const runtime = {
    ...manifest.dependencies,
    ...manifest.peerDependencies,
    ...manifest.optionalDependencies,
  };
  const ownPackages = Object.keys(runtime).filter((name) => name.startsWith('@agent-core/'));
  if (pkg.name === '@agent-core/core') {
    const dependencies = Object.keys(manifest.dependencies ?? {});
    if (dependencies.join() !== 'zod')
      problems.push(`core must depend on zod only, has: ${dependencies.join(', ')}`);
    if (Object.keys(manifest.peerDependencies ?? {}).length > 0)
      problems.push('core must have no peer dependencies');
  } else if (!pkg.isApp) {
    const peer = manifest.peerDependencies?.['@agent-core/core'];
    if (peer !== `^${coreVersion}`)
      problems.push(
        `peerDependencies["@agent-core/core"] is ${JSON.stringify(peer)}, expected "^${coreVersion}"`,
      );
    if (manifest.dependencies?.['@agent-core/core'] !== undefined)
      problems.push('@agent-core/core must be a peer dependency only, not also a dependency');
    const plugins = ownPackages.filter((name) => name !== '@agent-core/core');
    if (plugins.length > 0) problems.push(`a plugin must not depend on other plugins: ${plugins.join(', ')}`);
  }

  // The exports map: every entry typed, every target shipped.
  problems.push(...inspectExports(pkg, manifest, has));
  for (const field of ['main', 'types', 'module']) {
    if (typeof manifest[field] === 'string' && !has(manifest[field]))
      problems.push(`"${field}" points to ${manifest[field]}, which is not in the tarball`);
  }
  for (const [command, target] of Object.entries(binEntries(manifest))) {
    const file = tarball.files.get(target.replace(/^\.\//, ''));
    if (file === undefined)
      problems.push(`bin "${command}" points to ${target}, which is not in the tarball`);
    else if (!file.content.toString('utf8').startsWith('#!/usr/bin/env node'))
      problems.push(`bin "${command}" (${target}) does not start with #!/usr/bin/env node`);
  }

  // Only what users need: no tests, no fixtures, no maps without their sources.
  for (const path of tarball.files.keys()) {
    if (testFile.test(path) || testFolder.test(path)) problems.push(`${path} is a test or fixture file`);
    if (path.endsWith('.tsbuildinfo')) problems.push(`${path} is a build cache file`);
  }
  problems.push(...inspectSourceMaps(tarball));

  // sideEffects: every module that registers a plugin (or imports one that does) is declared.
  problems.push(...inspectSideEffects(tarball));
  return problems;
}

/**
 * @param {PublicPackage} pkg
 * @param {Record<string, any>} manifest
 * @param {(path: string) => boolean} has
 */
function inspectExports(pkg, manifest, has) {
  const problems = [];
  const exportsMap = manifest.exports;
  if (typeof exportsMap !== 'object' || exportsMap === null) return ['"exports" map is missing'];
  if (exportsMap['./package.json'] !== './package.json') problems.push('"exports" lacks "./package.json"');
  if (!pkg.isApp && exportsMap['.'] === undefined) problems.push('"exports" lacks "."');
  for (const [subpath, target] of Object.entries(exportsMap)) {
    if (typeof target === 'string') {
      if (!has(target))
        problems.push(`exports["${subpath}"] points to ${target}, which is not in the tarball`);
      if (/\.[cm]?js$/.test(target)) problems.push(`exports["${subpath}"] has no "types" condition`);
      continue;
    }
    const conditions = Object.keys(target);
    if (conditions[0] !== 'types') problems.push(`exports["${subpath}"] must list "types" first`);
    for (const [condition, file] of Object.entries(target)) {
      if (typeof file !== 'string') {
        problems.push(`exports["${subpath}"]["${condition}"] is nested; keep conditions flat`);
        continue;
      }
      if (!has(file))
        problems.push(`exports["${subpath}"]["${condition}"] points to ${file}, not in the tarball`);
      if (condition === 'types' && !/\.d\.[cm]?ts$/.test(file))
        problems.push(`exports["${subpath}"].types is ${file}, not a .d.ts`);
    }
    if (!conditions.includes('default') && !conditions.includes('require'))
      problems.push(
        `exports["${subpath}"] offers no condition that require() matches: add "default" next to "import"`,
      );
  }
  return problems;
}

/** @param {Record<string, any>} manifest @returns {Record<string, string>} */
function binEntries(manifest) {
  if (typeof manifest.bin === 'string') return { [manifest.name.split('/').pop()]: manifest.bin };
  return manifest.bin ?? {};
}

/** @param {Tarball} tarball */
function inspectSourceMaps(tarball) {
  const problems = [];
  for (const [path, file] of tarball.files) {
    if (!path.endsWith('.map')) continue;
    /** @type {{ sources?: string[], sourceRoot?: string }} */
    let map;
    try {
      map = JSON.parse(file.content.toString('utf8'));
    } catch {
      problems.push(`${path} is not valid JSON`);
      continue;
    }
    const missing = (map.sources ?? [])
      .map((source) => posix.normalize(posix.join(posix.dirname(path), map.sourceRoot ?? '', source)))
      .filter((source) => !tarball.files.has(source));
    if (missing.length > 0)
      problems.push(
        `${path} refers to ${missing.join(', ')}, which is not in the tarball (ship the sources, leave the map out, or delete a stale dist/ and rebuild)`,
      );
  }
  return problems;
}

/** @param {Tarball} tarball */
function inspectSideEffects(tarball) {
  const sideEffects = tarball.manifest.sideEffects;
  if (sideEffects === true) return [];
  const declared = new Set(
    Array.isArray(sideEffects) ? sideEffects.map((path) => path.replace(/^\.\//, '')) : [],
  );
  const problems = [];
  for (const path of declared) {
    if (!/[*?]/.test(path) && !tarball.files.has(path))
      problems.push(`sideEffects lists ${path}, not in the tarball`);
  }
  // Modules with effects: top-level register calls, and modules that import one of those for its effect.
  const effectful = new Set();
  for (const [path, file] of tarball.files) {
    if (/\.[cm]?js$/.test(path) && registerCall.test(file.content.toString('utf8'))) effectful.add(path);
  }
  let grew = true;
  while (grew) {
    grew = false;
    for (const [path, file] of tarball.files) {
      if (!/\.[cm]?js$/.test(path) || effectful.has(path)) continue;
      for (const match of file.content.toString('utf8').matchAll(/^import\s+['"](\.[^'"]+)['"];?$/gm)) {
        const target = posix.normalize(posix.join(posix.dirname(path), match[1] ?? ''));
        if (effectful.has(target)) {
          effectful.add(path);
          grew = true;
        }
      }
    }
  }
  for (const path of effectful) {
    if (!declared.has(path))
      problems.push(`${path} registers a plugin when imported but is not listed in sideEffects`);
  }
  return problems;
}
