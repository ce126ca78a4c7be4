import { constants, type Dirent, type Stats } from 'node:fs';
import { open, readdir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { normalizeSkillPath, SkillError, type SkillFiles } from '@agent-core/core';

/** Limits of a skill folder's reader. */
export interface SkillFolderFilesOptions {
  /** The largest file `read` returns, in bytes (default 256 KiB). */
  maxFileBytes?: number;
  /** How many paths `list` returns at most (default 500). */
  maxListed?: number;
}

// Absent on Windows; there the dev/ino comparison is the only check between checking and opening.
const noFollow = constants.O_NOFOLLOW ?? 0;
const binaryProbeBytes = 8000;
const listDepth = 4;
const decoder = new TextDecoder('utf-8', { fatal: true });

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

function isWithin(base: string, target: string): boolean {
  const path = relative(base, target);
  return path === '' || (path !== '..' && !path.startsWith(`..${sep}`) && !isAbsolute(path));
}

/**
 * The bundled files of a skill's folder, read on demand and confined to it
 * with the rules of the fs tools' workspace: no escape by `..`, absolute path
 * or symbolic link (a link is followed only while it stays inside the
 * folder), the file opened without following a link in its last part and
 * checked to be the file that was resolved. Reads text only: a binary file or
 * one over `maxFileBytes` is refused with a `SkillError` that gives its path,
 * so other tools can use it. Nothing is ever run.
 */
export function skillFolderFiles(
  skill: string,
  directory: string,
  options: SkillFolderFilesOptions = {},
): SkillFiles {
  const maxFileBytes = options.maxFileBytes ?? 256 * 1024;
  const maxListed = options.maxListed ?? 500;
  let realRoot: Promise<string> | undefined;
  const root = () => (realRoot ??= realpath(directory));

  return {
    async list() {
      const base = await root();
      const paths: string[] = [];
      const walk = async (folder: string, depth: number): Promise<void> => {
        let entries: Dirent[];
        try {
          entries = await readdir(join(base, folder), { withFileTypes: true });
        } catch {
          return;
        }
        for (const entry of entries.sort((left, right) => (left.name < right.name ? -1 : 1))) {
          if (paths.length >= maxListed) return;
          if (entry.name.startsWith('.')) continue;
          const path = folder === '' ? entry.name : `${folder}/${entry.name}`;
          if (path === 'SKILL.md' || path === 'skill.md') continue;
          let target: Stats | Dirent = entry;
          if (entry.isSymbolicLink()) {
            // A link is listed only when it stays inside the folder, as read() would allow it.
            const real = await realpath(join(base, path)).catch(() => undefined);
            if (real === undefined || !isWithin(base, real)) continue;
            target = await stat(real);
          }
          if (target.isDirectory()) {
            if (depth < listDepth && !entry.isSymbolicLink()) await walk(path, depth + 1);
          } else if (target.isFile()) paths.push(path);
        }
      };
      await walk('', 1);
      return paths;
    },

    async read(given) {
      const path = normalizeSkillPath(skill, given);
      const base = await root();
      const absolute = join(base, ...path.split('/'));
      const fail = (
        code: ConstructorParameters<typeof SkillError>[0],
        message: string,
        cause?: unknown,
      ): never => {
        throw new SkillError(code, message, cause === undefined ? { skill, path } : { skill, path, cause });
      };
      let real: string;
      try {
        real = await realpath(absolute);
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' || code === 'ENOTDIR')
          fail(
            'file_not_found',
            `Skill '${skill}' has no file '${path}'. Check the path its instructions give (relative to its folder).`,
            error,
          );
        if (code === 'ELOOP')
          fail('outside_skill', `'${path}' of skill '${skill}' runs into a symbolic link loop.`, error);
        throw error;
      }
      if (!isWithin(base, real))
        fail(
          'outside_skill',
          `'${path}' of skill '${skill}' leads through a symbolic link outside the skill's folder; only the skill's own files can be read.`,
        );
      const stats = await stat(real);
      if (stats.isDirectory())
        fail('not_a_file', `'${path}' of skill '${skill}' is a folder; give a file inside it.`);
      if (!stats.isFile()) fail('not_a_file', `'${path}' of skill '${skill}' is not a regular file.`);
      if (stats.size > maxFileBytes)
        fail(
          'file_too_large',
          `'${path}' of skill '${skill}' is ${stats.size} bytes, over the ${maxFileBytes} bytes a read returns; use it by its path: ${real}`,
        );
      const handle = await open(real, constants.O_RDONLY | noFollow).catch((error: unknown) =>
        fail(
          'outside_skill',
          `'${path}' of skill '${skill}' changed while it was being opened; refused.`,
          error,
        ),
      );
      try {
        const opened = await handle.stat();
        if (opened.dev !== stats.dev || opened.ino !== stats.ino)
          fail(
            'outside_skill',
            `'${path}' of skill '${skill}' was replaced while it was being opened; refused.`,
          );
        const bytes = new Uint8Array(Math.min(opened.size, maxFileBytes));
        const { bytesRead } = await handle.read(bytes, 0, bytes.length, 0);
        const content = bytes.subarray(0, bytesRead);
        if (content.subarray(0, binaryProbeBytes).includes(0))
          fail(
            'binary_file',
            `'${path}' of skill '${skill}' is a binary file (${opened.size} bytes), not text; use it by its path: ${real}`,
          );
        try {
          return decoder.decode(content);
        } catch {
          return fail(
            'binary_file',
            `'${path}' of skill '${skill}' is not UTF-8 text; use it by its path: ${real}`,
          );
        }
      } finally {
        await handle.close();
      }
    },
  };
}
