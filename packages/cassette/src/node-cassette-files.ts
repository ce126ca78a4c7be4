import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CassetteFiles } from './cassette-files.js';

let writes = 0;

/** Cassette files on the local disk: a write goes to a temporary file beside it, then is renamed over it. */
export const nodeCassetteFiles: CassetteFiles = {
  async read(path) {
    try {
      return await readFile(path, 'utf8');
    } catch (error) {
      if (codeOf(error) === 'ENOENT') return undefined;
      throw error;
    }
  },
  async write(path, text) {
    const temporary = `${path}.${process.pid}.${++writes}.tmp`;
    try {
      try {
        await writeFile(temporary, text, 'utf8');
      } catch (error) {
        // The folder is made when first missing, not before every write: a recording writes after every reply.
        if (codeOf(error) !== 'ENOENT') throw error;
        await mkdir(dirname(path), { recursive: true });
        await writeFile(temporary, text, 'utf8');
      }
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  },
};

/** A `file` option as a path. */
export function pathOf(file: string | URL): string {
  return typeof file === 'string' ? file : fileURLToPath(file);
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown }).code;
}
