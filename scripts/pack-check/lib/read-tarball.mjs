// Reads an npm tarball (gzipped tar) in memory: the file list, sizes and contents,
// so the check sees exactly what a user's `npm i` would unpack.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/**
 * @typedef {{ path: string, size: number, content: Buffer }} TarballFile
 * @typedef {{ file: string, bytes: number, integrity: string, shasum: string, files: Map<string, TarballFile>, manifest: Record<string, any> }} Tarball
 */

/**
 * Reads the tarball at `file`. Paths are relative to the package root (the leading `package/` is removed).
 * @param {string} file
 * @returns {Tarball}
 */
export function readTarball(file) {
  const gzipped = readFileSync(file);
  const archive = gunzipSync(gzipped);
  /** @type {Map<string, TarballFile>} */
  const files = new Map();
  let offset = 0;
  /** @type {string | undefined} */
  let longName;
  while (offset + 512 <= archive.length) {
    const header = archive.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const name = text(header, 0, 100);
    const size = Number.parseInt(text(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = text(header, 345, 155);
    const body = archive.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      // A pax header: only its `path` matters here.
      const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1];
      if (path !== undefined) longName = path;
      continue;
    }
    if (type === 'L') {
      longName = body.toString('utf8').replace(/\0+$/, '');
      continue;
    }
    const fullName = longName ?? (prefix === '' ? name : `${prefix}/${name}`);
    longName = undefined;
    if (type !== '0' && type !== '\0') continue;
    const path = fullName.replace(/^[^/]+\//, '');
    files.set(path, { path, size, content: Buffer.from(body) });
  }
  const manifestFile = files.get('package.json');
  if (manifestFile === undefined) throw new Error(`${file} has no package.json`);
  return {
    file,
    bytes: gzipped.length,
    integrity: `sha512-${createHash('sha512').update(gzipped).digest('base64')}`,
    shasum: createHash('sha1').update(gzipped).digest('hex'),
    files,
    manifest: JSON.parse(manifestFile.content.toString('utf8')),
  };
}

/**
 * @param {Buffer} header
 * @param {number} start
 * @param {number} length
 */
function text(header, start, length) {
  const field = header.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end === -1 ? field.length : end).toString('utf8');
}

/**
 * The unpacked size of a tarball: the sum of its file sizes.
 * @param {Tarball} tarball
 */
export function unpackedBytes(tarball) {
  let total = 0;
  for (const file of tarball.files.values()) total += file.size;
  return total;
}
