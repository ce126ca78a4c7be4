// publint and Are the Types Wrong on the packed tarball, the file users get.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { describeFailure, runCommand } from './run-command.mjs';

const require = createRequire(import.meta.url);
// The CLI exports no entry of its own; its bin sits beside its package.json.
const attwBin = join(dirname(require.resolve('@arethetypeswrong/cli/package.json')), 'dist/index.js');

/**
 * publint's messages for the tarball at any level (errors, warnings and suggestions all count).
 * @param {import('./read-tarball.mjs').Tarball} tarball
 * @returns {Promise<string[]>}
 */
export async function publintProblems(tarball) {
  const { readFileSync } = await import('node:fs');
  const bytes = readFileSync(tarball.file);
  const result = await publint({
    pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
    level: 'suggestion',
    strict: true,
  });
  return result.messages.map(
    (message) => `${message.type}: ${formatMessage(message, result.pkg, { color: false })}`,
  );
}

/**
 * attw's verdict on the tarball, or `undefined` when it is clean.
 *
 * One rule is off: `cjs-resolves-to-esm`. The packages are ESM, and on Node >= 20.19 (their
 * engines floor) `require()` loads them through the `default` condition; TypeScript's own
 * `module: node20`/`nodenext` allows that too. The check proves it by requiring every package
 * from CommonJS after installing it, which is stronger than attw's static view.
 * @param {import('./read-tarball.mjs').Tarball} tarball
 * @returns {Promise<string | undefined>}
 */
export async function attwProblems(tarball) {
  const result = await runCommand(
    process.execPath,
    [
      attwBin,
      tarball.file,
      '--no-definitely-typed',
      '--ignore-rules',
      'cjs-resolves-to-esm',
      '--format',
      'ascii',
      '--no-color',
      '--no-emoji',
    ],
    { timeoutMs: 120_000 },
  );
  return result.code === 0 ? undefined : describeFailure('attw', result);
}
