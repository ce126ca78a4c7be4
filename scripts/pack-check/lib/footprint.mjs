// The install footprint of each package: its tarball and unpacked size, and how
// many packages `npm i <it>` puts in a fresh project (resolved by npm itself,
// with `--package-lock-only`). The root README shows it between markers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshFolder, npmInstallOptions, userEnvironment } from './environment.mjs';
import { unpackedBytes } from './read-tarball.mjs';
import { describeFailure, runCommand } from './run-command.mjs';

export const startMarker = '<!-- footprint:start -->';
export const endMarker = '<!-- footprint:end -->';

/**
 * @typedef {{ name: string, tarballBytes: number, unpackedBytes: number, installed: string[], direct: string[] }} Footprint
 */

/**
 * Resolves a fresh install of the package alone and measures it.
 * @param {import('./read-tarball.mjs').Tarball} tarball
 * @param {{ registryArguments: string[], temporaryRoot: string }} context
 * @returns {Promise<Footprint | string>} the footprint, or why it could not be measured
 */
export async function measureFootprint(tarball, context) {
  const { name } = tarball.manifest;
  const project = freshFolder(context.temporaryRoot, `footprint-${name.replace(/[@/]/g, '-')}`);
  writeFileSync(join(project, 'package.json'), '{ "name": "footprint", "private": true }\n');
  const result = await runCommand(
    'npm',
    [
      'install',
      '--package-lock-only',
      '--ignore-scripts',
      ...npmInstallOptions,
      ...context.registryArguments,
      name,
    ],
    { cwd: project, env: userEnvironment(), timeoutMs: 300_000 },
  );
  if (result.code !== 0) return describeFailure(`npm i --package-lock-only ${name}`, result);
  const lock = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8'));
  const installed = new Set();
  for (const [path, entry] of Object.entries(lock.packages ?? {})) {
    if (path === '' || !fitsThisMachine(entry)) continue;
    installed.add(path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
  }
  installed.delete(name);
  const manifest = tarball.manifest;
  const requiredPeers = Object.keys(manifest.peerDependencies ?? {}).filter(
    (peer) => manifest.peerDependenciesMeta?.[peer]?.optional !== true,
  );
  return {
    name,
    tarballBytes: tarball.bytes,
    unpackedBytes: unpackedBytes(tarball),
    installed: [...installed].sort(),
    direct: [...new Set([...Object.keys(manifest.dependencies ?? {}), ...requiredPeers])].sort(),
  };
}

/** Whether npm would install this lock entry here: platform-specific packages for other machines are left out. */
function fitsThisMachine(/** @type {{ os?: string[], cpu?: string[] }} */ entry) {
  return allows(entry.os, process.platform) && allows(entry.cpu, process.arch);
}

/** @param {string[] | undefined} list @param {string} value */
function allows(list, value) {
  if (list === undefined) return true;
  if (list.includes(`!${value}`)) return false;
  const positive = list.filter((item) => !item.startsWith('!'));
  return positive.length === 0 || positive.includes(value);
}

/** @param {number} bytes */
function kilobytes(bytes) {
  return `${Math.max(1, Math.round(bytes / 1000))} kB`;
}

/**
 * The README table: one row per package, in the order given.
 * @param {Footprint[]} footprints
 */
export function footprintTable(footprints) {
  const rows = footprints.map((footprint) => {
    // An app depends on many of our packages: count those rather than list them.
    const ours = footprint.direct.filter((name) => name.startsWith('@agent-core/'));
    const shown =
      ours.length > 2 ? [`${ours.length} \`@agent-core\` packages`] : ours.map((name) => `\`${name}\``);
    const others = footprint.direct
      .filter((name) => !name.startsWith('@agent-core/'))
      .map((name) => `\`${name}\``);
    const direct = [...shown, ...others].join(', ') || 'none';
    return `| \`${footprint.name}\` | ${kilobytes(footprint.tarballBytes)} | ${kilobytes(footprint.unpackedBytes)} | ${footprint.installed.length} | ${direct} |`;
  });
  return [
    '| package | tarball | unpacked | packages installed with it | of which direct |',
    '| --- | ---: | ---: | ---: | --- |',
    ...rows,
  ].join('\n');
}

/**
 * Compares the README's table with the measured one, and rewrites it when `write` is set.
 * @param {string} readmePath
 * @param {string} table
 * @param {boolean} write
 * @returns {string | undefined} a problem, or undefined when the README matches (or was updated)
 */
export function syncReadmeTable(readmePath, table, write) {
  const readme = readFileSync(readmePath, 'utf8');
  const start = readme.indexOf(startMarker);
  const end = readme.indexOf(endMarker);
  if (start === -1 || end === -1 || end < start)
    return `README.md has no ${startMarker} ... ${endMarker} markers for the footprint table`;
  const current = readme.slice(start + startMarker.length, end).trim();
  if (current === table) return undefined;
  if (!write && tablesAgree(current, table)) return undefined;
  if (write) {
    writeFileSync(
      readmePath,
      `${readme.slice(0, start + startMarker.length)}\n${table}\n${readme.slice(end)}`,
    );
    return undefined;
  }
  const currentLines = new Set(current.split('\n'));
  const measuredLines = new Set(table.split('\n'));
  const differences = [
    ...[...currentLines].filter((line) => !measuredLines.has(line)).map((line) => `  README:   ${line}`),
    ...[...measuredLines].filter((line) => !currentLines.has(line)).map((line) => `  measured: ${line}`),
  ];
  return `the footprint table in README.md differs from the measurement; run \`pnpm check:packages --write\` to update it:\n${differences.join('\n')}`;
}

/**
 * True when two tables list the same packages with the same dependencies and
 * sizes within 10 % (at least 2 kB): a small code change must not fail the
 * check, a new dependency or a doubled size must.
 * @param {string} current
 * @param {string} measured
 */
export function tablesAgree(current, measured) {
  const rowsOf = (/** @type {string} */ table) =>
    table.split('\n').map((line) => line.split('|').map((cell) => cell.trim()));
  const left = rowsOf(current);
  const right = rowsOf(measured);
  if (left.length !== right.length) return false;
  return left.every((cells, row) => {
    const other = right[row] ?? [];
    if (cells.length !== other.length) return false;
    return cells.every((cell, column) => {
      const a = /^(\d+) kB$/.exec(cell);
      const b = /^(\d+) kB$/.exec(other[column] ?? '');
      if (a === null || b === null) return cell === other[column];
      const x = Number(a[1]);
      const y = Number(b[1]);
      return Math.abs(x - y) <= Math.max(2, 0.1 * Math.max(x, y));
    });
  });
}
